/** Writes the rule reference of docs/rubrics.md from the catalogue (`npm run docs:rules`). */
import * as fs from "node:fs"
import { withRuleReference } from "../src/review/rules/Reference.js"

const path = new URL("../docs/rubrics.md", import.meta.url)
const before = fs.readFileSync(path, "utf8")
const after = withRuleReference(before)
if (after !== before) fs.writeFileSync(path, after)
console.log(after === before ? "docs/rubrics.md: the rule reference is up to date" : "docs/rubrics.md: rule reference written")
