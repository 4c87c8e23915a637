/** Word lists the mock reviewer uses. Kept apart so docs/rubrics.md can cite them. */

/** Vague terms: `strong` ones cost 4 points and make a minor finding, `weak` ones 2 points and an info finding. */
export interface VagueTerm {
  readonly pattern: RegExp
  readonly label: string
  readonly strength: "strong" | "weak"
  readonly advice: string
}

const t = (source: string, label: string, strength: "strong" | "weak", advice: string): VagueTerm => ({
  pattern: new RegExp(source, "gi"),
  label,
  strength,
  advice
})

export const VAGUE_TERMS: ReadonlyArray<VagueTerm> = [
  t("\\betc\\.?(?![\\w])", "etc.", "strong", "list every case the agent must handle, or say \"for example\" before a complete-enough list"),
  t("\\band so on\\b", "and so on", "strong", "list the remaining cases explicitly"),
  t("\\band more\\b", "and more", "strong", "list the remaining cases explicitly"),
  t("\\bas needed\\b", "as needed", "strong", "state the condition: \"when X, do Y\""),
  t("\\b(?:as|if|when|where) appropriate\\b", "as appropriate", "strong", "name the condition that makes it appropriate"),
  t("\\b(?:if|when|where) (?:needed|necessary)\\b", "if needed", "strong", "state the exact condition"),
  t("\\bappropriate(?:ly)?\\b", "appropriate", "strong", "name the concrete criterion (which one, how much, in what format)"),
  t("\\bproper(?:ly)?\\b", "properly", "strong", "say what correct looks like (a value, a format, a passing check)"),
  t("\\btry to\\b", "try to", "strong", "state the action directly as an imperative, and what to do if it fails"),
  t("\\bvarious\\b", "various", "strong", "name the items or give their number"),
  t("\\bsomehow\\b", "somehow", "strong", "describe the method"),
  t("\\bsomething like\\b", "something like", "strong", "give the exact form"),
  t("\\b(?:maybe|perhaps)\\b", "maybe", "strong", "decide: state when to do it and when not"),
  t("\\bmight want to\\b", "might want to", "strong", "say whether to do it and when"),
  t("\\bshould probably\\b", "should probably", "strong", "say whether to do it and when"),
  t("\\b(?:kind|sort) of\\b", "kind of", "strong", "use the precise term"),
  t("\\bstuff\\b", "stuff", "strong", "name the things"),
  t("\\breasonabl[ey]\\b", "reasonable", "strong", "give the threshold or range"),
  t("\\bwhatever\\b", "whatever", "strong", "name the options"),
  t("\\bif (?:at all )?possible\\b", "if possible", "strong", "say when it is possible and what to do when it is not"),
  t("\\bprobably\\b", "probably", "strong", "decide, and say when"),
  t("\\bpossibly\\b", "possibly", "strong", "decide, and say when"),
  t("\\bhopefully\\b", "hopefully", "strong", "state the expected result and how to check it"),
  t("\\b(?:you )?may want to\\b", "may want to", "strong", "say whether to do it and when"),
  t("\\byou could\\b", "you could", "weak", "say whether to do it"),
  t("\\bideally\\b", "ideally", "weak", "state the requirement, or what is acceptable instead"),
  t("\\bfeel free to\\b", "feel free to", "weak", "say when to do it"),
  t("\\bsome\\b", "some", "weak", "name them or give a number"),
  t("\\bseveral\\b", "several", "weak", "give the number"),
  t("\\ba few\\b", "a few", "weak", "give the number"),
  t("\\bcertain\\b", "certain", "weak", "name which ones"),
  t("\\brelevant\\b", "relevant", "weak", "say which ones are relevant"),
  t("\\bthings\\b", "things", "weak", "name the things")
]

/** One regex that matches a line when any vague term could be in it (a cheap pre-filter). */
export const ANY_VAGUE = new RegExp(VAGUE_TERMS.map((v) => `(?:${v.pattern.source})`).join("|"), "i")

/** Imperative verbs that commonly start a step. Words outside this list are judged by the rules in Checks.ts. */
export const IMPERATIVE_VERBS: ReadonlySet<string> = new Set(
  (
    "accept access add adjust align analyze analyse announce answer append apply approve archive ask assert assess assign attach audit " +
    "authenticate avoid back build bump calculate call capture categorize change check choose clarify classify clean clear click clone close " +
    "collect combine commit compare compile complete compose compute configure confirm connect consider consolidate construct contact continue " +
    "convert copy correct count create cross-check cut debug decide declare deduplicate define delete deploy describe design detect determine " +
    "diagnose diff disable discard discuss dispatch display do document double-check download draft drop edit emit enable encode enforce ensure enter " +
    "escalate establish estimate evaluate examine exclude execute exit expand explain export extract fetch file fill filter finalize find fix " +
    "flag follow fork format gather generate get give go grep group handle hand highlight identify ignore implement import improve include " +
    "increment index infer inform initialize insert inspect install integrate interview invoke isolate iterate keep label launch lint list load " +
    "locate lock log look make map mark match measure merge migrate mirror modify monitor move name navigate normalize note notify obtain open " +
    "optimize order organize output parse paste patch pause pick pin place plan poll populate post prefer prepare present preserve press " +
    "prioritize print probe proceed process profile prompt propose provide publish pull push put query raise read rebase rebuild recheck " +
    "record recover redact reduce refactor refer reference refine reformat register reject release reload remove rename render reopen reorder " +
    "repeat rephrase replace reply report reproduce request require rerun research reset resolve respond restart restore restructure resume " +
    "retry return reuse review revise revert rewrite run save scan schedule scope score search select send separate set setup share ship show " +
    "sign simplify skim skip sort specify split squash stage start state stop store structure study submit summarize summarise supply surface " +
    "switch sync tag take tell test trace track transform translate triage trigger trim troubleshoot turn type uninstall unpack update upgrade upload use " +
    "validate verify view visit wait walk warn watch wrap write"
  ).split(/\s+/)
)

/** Words that open a conditional or sequencing step, which is fine for a step to start with. */
export const STEP_CONNECTIVES: ReadonlySet<string> = new Set(
  "if when for after before once optionally then otherwise unless only while until where each every first next finally also again".split(" ")
)

/** Words that show a step is not written as an instruction. */
export const NON_IMPERATIVE_STARTS: ReadonlySet<string> = new Set(
  "the a an this that these those it its we you i they he she our your my there here is are was were be been being has have had will would should could can may might".split(
    " "
  )
)

export const SKILL_FRONTMATTER_KEYS: ReadonlySet<string> = new Set([
  "name",
  "description",
  "license",
  "allowed-tools",
  "metadata",
  "version",
  "compatibility",
  "model",
  "disable-model-invocation",
  "user-invocable",
  "argument-hint",
  "author",
  "tags"
])

export const COMMAND_FRONTMATTER_KEYS: ReadonlySet<string> = new Set([
  "name",
  "description",
  "argument-hint",
  "allowed-tools",
  "model",
  "disable-model-invocation",
  "agent",
  "tags"
])
