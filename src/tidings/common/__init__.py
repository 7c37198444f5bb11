"""What every layer shares and none owns: helpers that import no pipeline layer (the
`shared` import-linter contract holds them to it)."""
