/**
 * The criterion catalogue: every criterion key the engine (and so the mock reviewer) can score.
 * Rubrics, built-in or custom, are weighted selections from this catalogue; a key means the same
 * thing in every rubric, and any key can be used for any artifact type (the scorer adapts its
 * expectations to the artifact type, see docs/rubrics.md).
 */

export interface CriterionDefinition {
  readonly key: string
  readonly label: string
  readonly description: string
}

const def = (key: string, label: string, description: string): CriterionDefinition => ({ key, label, description })

export const CRITERIA = {
  frontmatter: def(
    "frontmatter",
    "Frontmatter",
    "A parseable YAML frontmatter block at line 1, closed, without duplicate or unknown keys (required for skills, recommended for commands)."
  ),
  name: def("name", "Name", "The `name` field is present, kebab-case, at most 64 characters and matches the folder."),
  description: def(
    "description",
    "Description",
    "The `description` field says what the artifact does and when to use it, within 40..1024 characters, in the third person."
  ),
  purpose: def("purpose", "Purpose", "The opening states the goal, role or task in concrete terms before any detail."),
  structure: def(
    "structure",
    "Structure and headings",
    "A title, sections with headings, a consistent heading hierarchy, no empty sections, closed code fences and balanced tags."
  ),
  steps: def(
    "steps",
    "Concrete steps",
    "A numbered procedure whose steps start with imperative verbs, numbered consecutively, of a manageable length."
  ),
  examples: def("examples", "Examples", "Worked examples: code blocks with a language tag, example sections or example files."),
  references: def(
    "references",
    "Bundle references",
    "Every link or path to a bundle file resolves to a file in the bundle; bundle files are reachable from the artifact."
  ),
  clarity: def(
    "clarity",
    "Clarity and precision",
    "Precise wording: no vague terms (etc., as needed, properly, some, various, appropriate, try to), no TODO markers, no shouting, no run-on sentences."
  ),
  length: def("length", "Length budget", "Lines, characters and approximate tokens within the budget for the artifact type, and not too thin to guide."),
  formatting: def(
    "formatting",
    "Formatting hygiene",
    "A final newline, no trailing whitespace, consistent line endings, no machine-specific absolute paths, no invisible characters."
  ),
  commands: def("commands", "Runnable commands", "Exact setup, build, test and lint commands the agent can run, in code."),
  constraints: def("constraints", "Constraints and boundaries", "Explicit rules about what to do and what never to do."),
  output_format: def("output_format", "Output format", "The expected output is specified: format, sections, schema or a template."),
  inputs: def("inputs", "Inputs", "Inputs, arguments or variables are declared and used consistently."),
  verification: def("verification", "Verification", "How to check the work is done: tests to run, success criteria, checks."),
  error_handling: def("error_handling", "Failure handling", "What to do when a step fails or information is missing: stop, ask, retry, roll back."),
  consistency: def(
    "consistency",
    "Consistency",
    "Rules and steps agree with each other and with the description: no 'always' against a 'never', no step undoing an earlier one, no body forbidding what the description offers."
  ),
  safety: def(
    "safety",
    "Safety",
    "No secrets in the text; no instruction to ignore earlier instructions or to send data elsewhere; destructive commands only after a confirmation; no remote script piped into a shell; bounded autonomy."
  )
} as const satisfies Record<string, CriterionDefinition>

export type CriterionKey = keyof typeof CRITERIA

export const CRITERION_KEYS: ReadonlyArray<CriterionKey> = Object.keys(CRITERIA) as Array<CriterionKey>

export const isCriterionKey = (key: string): key is CriterionKey => Object.prototype.hasOwnProperty.call(CRITERIA, key)
