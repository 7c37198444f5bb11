// Pagefind's module API, as the search page's PagefindUI loads it (bundlePath), with one
// change to `search`: results a bundle gave for a word it does not hold are dropped.
//
// Why: a Pagefind index without any word starting with a query term answers with pages
// holding the term's longest indexed prefix ("mi" for "mi355x"; pagefind_web's
// find_word_extensions). One index of the whole archive has the word if any page does, so
// that fallback only fires for a word the site lacks. The site is split into bundles
// (site/search_bundles.py), and each bundle lacking the word falls back on its own, scored in
// that bundle alone: its pages can outrank the real ones.
//
// The fallback is all or nothing per bundle: a bundle with a word that extends every term
// answers with real matches only, one without answers with fallbacks only. So one page per
// bundle (up to three when the first does not show it) decides for all of that bundle's
// results, at one small fragment fetch each. pages.json beside this file maps each page
// (Pagefind's fragment id) to its bundle.
import * as pagefind from "../pagefind/pagefind.js";

export const options = (o) => pagefind.options(o);
export const init = () => pagefind.init();
export const mergeIndex = (path, o) => pagefind.mergeIndex(path, o);
export const filters = async () => ordered(await pagefind.filters());
export const preload = (term, o) => pagefind.preload(term, o);
export const destroy = () => pagefind.destroy();

// Asked for as the module loads, so that the first search does not wait for it.
const bundles = fetch(new URL("pages.json", import.meta.url)).then((r) => r.json());
// Verdicts already reached: "bundle terms" -> whether the bundle holds them. A query typed
// letter by letter, or searched again with a filter, asks each bundle once.
const verdicts = new Map();
const PUNCTUATION = /[\p{Pd}\p{Pe}\p{Pf}\p{Pi}\p{Po}\p{Ps}]/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LETTERS = /^\p{L}+$/u;

// Filters (and each one's values) in one order, whatever order the bundles answered in: the
// default UI lists filter blocks by position, so a later search listing them in another order
// would show a block the reader opened under another name.
function ordered(filters) {
  const sorted = (o) => Object.fromEntries(Object.keys(o || {}).sort().map((k) => [k, o[k]]));
  return Object.fromEntries(Object.keys(filters || {}).sort().map((k) => [k, sorted(filters[k])]));
}

// The query's terms as Pagefind reads them: lower case, punctuation gone, split on spaces.
function terms(query) {
  return query.toLocaleLowerCase().replace(PUNCTUATION, "").split(/\s+/).filter(Boolean);
}

// Whether a page holds `term`: a Chinese or Japanese term as written in its text (`content`,
// spaces gone); anything else as the start of one of its `words`. A word of letters may end
// up to three letters short, for the English stemmer's cut ("regressions" finds
// "regression"), the more the longer it is: a short word that close ("flaky", "flake")
// could be what the bundle fell back on.
function holds(content, words, term) {
  if (CJK.test(term)) return content.includes(term);
  const n = term.length;
  const slack = !LETTERS.test(term) ? 0 : n >= 9 ? 3 : n >= 6 ? 2 : n === 5 ? 1 : 0;
  const start = term.slice(0, n - slack);
  return words.some((word) => word.startsWith(start));
}

async function shows(result, wanted) {
  const data = await result.data();
  const content = data.content.toLocaleLowerCase();
  const words = content.split(/\s+/).map((w) => w.replace(PUNCTUATION, ""));
  const squeezed = content.replace(/\s+/g, "");
  return wanted.every((term) => holds(squeezed, words, term));
}

async function real(group, wanted) {
  for (const result of group.slice(0, 3)) {
    if (await shows(result, wanted)) return true;
  }
  return false;
}

export async function search(term, o) {
  const found = await pagefind.search(term, o);
  if (!found) return found;
  found.filters = ordered(found.filters);
  found.totalFilters = ordered(found.totalFilters);
  const wanted = terms(term || "");
  if (!found.results.length || !wanted.length) return found;
  const bundleOf = await bundles;
  const groups = new Map();
  for (const result of found.results) {
    const bundle = bundleOf[result.id] ?? -1;
    if (!groups.has(bundle)) groups.set(bundle, []);
    groups.get(bundle).push(result);
  }
  const kept = new Set();
  await Promise.all(
    [...groups].map(async ([bundle, group]) => {
      const key = `${bundle} ${wanted.join(" ")}`;
      if (!verdicts.has(key)) verdicts.set(key, real(group, wanted));
      if (await verdicts.get(key)) kept.add(bundle);
    }),
  );
  return { ...found, results: found.results.filter((r) => kept.has(bundleOf[r.id] ?? -1)) };
}

let latest = 0;
export async function debouncedSearch(term, o, wait = 300) {
  const mine = ++latest;
  await new Promise((done) => setTimeout(done, wait));
  return mine === latest ? search(term, o) : null;
}
