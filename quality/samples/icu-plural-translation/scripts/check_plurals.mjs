#!/usr/bin/env node
// Check translated ICU MessageFormat strings against the target locale's CLDR plural categories.
//
// usage: node check_plurals.mjs <locale> <messages.json>
//   messages.json is a flat object { "key": "ICU message", ... }
// needs: npm install @formatjs/icu-messageformat-parser
//
// Reports, per key:
//   - syntax errors
//   - plural/selectordinal blocks missing a category the locale uses
//   - categories the locale never selects (dead branches, usually copied from the source)
//   - missing `other`
// Exit code 1 if any error was found. Read-only.

import { readFileSync } from "node:fs";
import { parse, TYPE } from "@formatjs/icu-messageformat-parser";

const [locale, file] = process.argv.slice(2);
if (!locale || !file) {
  console.error("usage: node check_plurals.mjs <locale> <messages.json>");
  process.exit(2);
}

const cardinal = new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);
const ordinal = new Set(new Intl.PluralRules(locale, { type: "ordinal" }).resolvedOptions().pluralCategories);
const messages = JSON.parse(readFileSync(file, "utf8"));
let problems = 0;

function report(key, level, msg) {
  if (level === "error") problems++;
  console.log(`${level.padEnd(7)} ${key}: ${msg}`);
}

function walk(key, nodes) {
  for (const node of nodes) {
    if (node.type === TYPE.plural) {
      const expected = node.pluralType === "ordinal" ? ordinal : cardinal;
      const kind = node.pluralType === "ordinal" ? "selectordinal" : "plural";
      const present = Object.keys(node.options).filter((k) => !k.startsWith("="));
      if (!("other" in node.options)) report(key, "error", `{${node.value}, ${kind}} has no 'other' branch`);
      for (const cat of expected) {
        if (!present.includes(cat)) report(key, "error", `{${node.value}, ${kind}} missing '${cat}' for ${locale}`);
      }
      for (const cat of present) {
        if (!expected.has(cat)) report(key, "warning", `{${node.value}, ${kind}} has '${cat}', which ${locale} never selects`);
      }
    }
    if (node.options) for (const opt of Object.values(node.options)) walk(key, opt.value);
    if (node.children) walk(key, node.children); // rich-text tags
  }
}

for (const [key, msg] of Object.entries(messages)) {
  try {
    walk(key, parse(msg));
  } catch (err) {
    report(key, "error", `syntax: ${err.message}`);
  }
}

console.log(`\n${locale}: cardinal {${[...cardinal].join(", ")}}, ordinal {${[...ordinal].join(", ")}}`);
process.exit(problems ? 1 : 0);
