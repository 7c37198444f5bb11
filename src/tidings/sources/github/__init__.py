"""sources/github"""
