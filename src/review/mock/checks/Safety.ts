/**
 * Safety: what an agent following the artifact could be made to do that harms its user. Secrets in the
 * text, instructions to ignore earlier instructions or to send data elsewhere, destructive commands
 * without a confirmation, remote scripts piped into a shell, unbounded autonomy. Every line is read,
 * code included (that is where secrets and commands live); a line that forbids the act ("Never run
 * `git push --force`") is a rule, not a hazard.
 */
import type { Doc } from "../../../markdown/Document.js"
import { CONFIRMATION, confirmedEverywhere, DISPOSABLE_PLACE, markedToConfirm, NEGATED_CONFIRMATION } from "./Confirmations.js"
import { stepNumberOf } from "../../../markdown/Sections.js"
import { IMPERATIVE_VERBS } from "../../../markdown/Vocabulary.js"
import { type CheckContext, type CheckOutcome, headingAbove, Out, quote, sectionEnd } from "./Common.js"
import { leadInAbove, notAnInstruction, prohibitedList, proseSentence, ownWords, renderedLine, TEMP_VARIABLE, unitText, withoutQuotes } from "./Runs.js"
import { type ListItem, plainText } from "../../../markdown/Markdown.js"
import { contentWordsApart, sentencesOf, STOP } from "./Words.js"

export type Hazard = "secret" | "prompt_injection" | "exfiltration" | "destructive" | "pipe_to_shell" | "unbounded"

export interface Finding {
  readonly hazard: Hazard
  readonly line: number
  /** the matched text (for a secret: the literal, which the improved version redacts) */
  readonly match: string
  /** a private key block's last line */
  readonly endLine?: number
}

// ---------------------------------------------------------------- secrets

/** Token formats with a recognisable prefix: precise enough to flag on sight. */
const TOKEN_PATTERNS: ReadonlyArray<RegExp> = [
  /\bsk-(?:proj-|live-|test-|ant-(?:api\d{2}-)?|svcacct-)?[A-Za-z0-9_-]{20,}/g, // OpenAI, Anthropic
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g, // Stripe
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{40,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key id
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API key
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g // a JWT
]

/** `password = "…"`, `API_KEY: …`: a named secret with a literal value. */
const ASSIGNED = /\b([A-Za-z_]*(?:api[_-]?key|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|client[_-]?secret|password|passwd|private[_-]?key)[A-Za-z_]*)\b["']?\s*[:=]\s*["']?([^\s"'`<>(),;{}[\]]{12,})(?![(\w])/gi

const PLACEHOLDER = /(your|example|placeholder|changeme|dummy|sample|redacted|xxxx|\*\*\*|\.\.\.|<|>|\{|\}|\$|%)/i

/** A literal that looks random: letters and digits mixed, many distinct characters, not a placeholder. */
const looksRandom = (value: string) => {
  const body = value.replace(/^(?:sk|pk|rk|gh[pousr]|glpat|xox[abposr]|npm|github_pat)[-_]/, "")
  if (PLACEHOLDER.test(body)) return false
  if (!/[A-Za-z]/.test(body)) return false
  // an AWS key id is AKIA and sixteen capitals or digits, eight of them distinct at least: one in thirty
  // has no digit (`AKIAYONHMNSTOVJFALZP`), and a placeholder repeats a few (`AKIAXXXXXXXXXXXXXXXX`)
  if (/^(?:AKIA|ASIA)[0-9A-Z]{16}$/.test(value)) return new Set(value.slice(4)).size >= 8
  // a random key may hold no digit (one in seventy of 24 base62 characters do): both cases and sixteen distinct
  // letters, where a name in CamelCase ("StripeSecretKeyGoesHere") repeats its few
  if (!/[0-9]/.test(body)) return /[a-z]/.test(body) && /[A-Z]/.test(body) && new Set(body.replace(/[^A-Za-z]/g, "")).size >= 16
  return new Set(body).size >= Math.min(12, Math.ceil(body.length / 2))
}

// ---------------------------------------------------------------- instructions

/** Forbidding or warning about the act, rather than asking for it. */
const NEGATED = /\b(never|do not|don't|must not|mustn't|should not|shouldn't|refuse|reject|untrusted|treat (it|them|this|that|the \w+) as (data|untrusted)|watch (out )?for|beware|injection|attempts? to|if (a|the|any) [\w\s]{0,30}(says|tells|asks)|not allowed|forbidden|prohibited|avoid)\b/i

const INJECTION =
  /\b(ignore|disregard|forget|override|bypass|skip)\b[^.\n]{0,40}?\b(all |any |every )?(previous|prior|earlier|above|preceding|original|your|the system|system|safety|other|existing)\b[^.\n]{0,25}?\b(instructions?|rules?|prompts?|guidelines?|guardrails?|directives?|policies|constraints)\b/i

/** Sending as an action the agent takes: the verb opens a clause ("upload the …", "and post …"), not "a shared pool". */
const SEND = /(?:^|[.;:,!]\s*|\b(?:then|and|also|please|first|you|to|must|should|always)\s+)(?:send|post|upload|transmit|forward|exfiltrate|e-?mail|share|sync|copy|paste|submit|report)\b/i
const SENSITIVE =
  /(\bcredentials?\b|\bsecrets?\b|\btokens?\b|\bapi[ _-]?keys?\b|\bpasswords?\b|\bprivate keys?\b|~\/\.ssh|\bid_rsa\b|\bid_ed25519\b|(^|[\s/`'"])\.env\b|\benvironment variables\b|\benv vars?\b|~\/\.aws|\.aws\/credentials|\bkubeconfig\b|\bcookies\b|\bsession tokens?\b|\bcustomer data\b|\buser data\b|\bpersonal data\b|\bdatabase dump\b|\/etc\/(passwd|shadow)|\bprintenv\b|\bthe (whole|entire) (repo|repository|codebase))/i
const OUTSIDE =
  /(https?:\/\/(?!(localhost|127\.0\.0\.1|\[::1\])[:/])[^\s)`'"]+|\b(an?|the|some) (external|remote|third[- ]party|outside|personal|private) (server|endpoint|address|url|service|host|inbox|email|bucket|webhook)|\b[\w.+-]+@[\w-]+\.[\w.-]+\b|\bpastebin\b|\bwebhook\b)/i
const CURL_UPLOAD = /\b(curl|wget)\b[^\n]*(-d\s*@|--data(-binary)?\s*@|-F\s*\S*=@|--upload-file|-T\s)[^\n]*(~\/\.ssh|\.env\b|credentials|id_rsa|\/etc\/passwd|\$\(?\s*(printenv|env)\b)/i

// ---------------------------------------------------------------- commands

/**
 * A folder that holds only what a build or a package manager regenerates: build output, caches, temp
 * files, and the package managers' download caches and index lists (`rm -rf /var/lib/apt/lists/*` at
 * the end of a Dockerfile's `RUN apt-get install`, `~/.cache/pip`), which the next `update` refetches,
 * the IDEs' build caches (Xcode's `DerivedData`) and any folder named for a cache (`~/Library/Caches/…`,
 * Gradle's `caches`, npm's `~/.npm/_cacache`).
 */
const REGENERABLE = /^["']?(?:\.\/)?(node_modules|dist|build|out|target|coverage|\.cache|\.next|\.nuxt|\.turbo|\.parcel-cache|__pycache__|\.pytest_cache|\.mypy_cache|\.venv|venv|tmp|\.tmp|\/tmp\/[\w.-]+|\$\{?TMPDIR\}?\/[\w.-]+|\/var\/lib\/apt\/lists|\/var\/cache\/(?:apt|apk|yum|dnf)|(?:~|\/root|\$\{?HOME\}?)\/\.cache(?:\/[\w.-]+)?|(?:[\w.~$\{\}-]+\/)*(?:DerivedData|[\w.-]*[Cc]ache[\w.-]*))(\/[\w.*-]*)*\/?["']?$/

/** The target as written: an inline command's closing backtick and the sentence's punctuation are not part of it. */
const target = (raw: string): string => raw.replace(/[`.,;:)'"]+$/, "")

// each with the words an approval names when it is for this act ("drop these partitions", "delete the branch")
const DESTRUCTIVE: ReadonlyArray<{ readonly pattern: RegExp; readonly act: RegExp; readonly guard?: (m: RegExpExecArray) => boolean }> = [
  // rm -rf on anything that is not a build or cache folder (the target after `--`, the end of the options)
  { pattern: /\brm\s+(?:-[a-zA-Z]*(?:rf|fr|r[a-zA-Z]*f|f[a-zA-Z]*r)[a-zA-Z]*|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)\s+(?:--\s+)?(\S+)/g, act: /\b(?:delet|remov|wip|eras)/i, guard: (m) => !REGENERABLE.test(target(m[1]!)) && !TEMP_VARIABLE.test(target(m[1]!)) },
  { pattern: /\bgit\s+push\b[^\n|;&]*?(?:\s--force(?!-with-lease)\b|\s-f\b)/g, act: /\b(?:force[- ]push|overwrit)/i },
  { pattern: /\bgit\s+reset\s+--hard\b/g, act: /\b(?:reset|discard)/i },
  { pattern: /\bgit\s+clean\s+-[a-zA-Z]*f/g, act: /\b(?:delet|remov)/i },
  { pattern: /\bgit\s+branch\s+-D\b/g, act: /\b(?:delet|remov)/i },
  { pattern: /\bDROP\s+(TABLE|DATABASE|SCHEMA)\b/g, act: /\bdrop/i },
  { pattern: /\bTRUNCATE\s+(TABLE\s+)?[A-Za-z_"`]/g, act: /\b(?:truncat|empty)/i },
  { pattern: /\bDELETE\s+FROM\s+[\w."`]+\s*(;|$)/gm, act: /\b(?:delet|purg)/i },
  { pattern: /\bterraform\s+destroy\b/g, act: /\bdestroy/i },
  { pattern: /\bkubectl\s+delete\s+(ns|namespace|all|--all|pv|pvc)\b/g, act: /\bdelet/i },
  // without -f, docker asks "Are you sure you want to continue? [y/N]" itself
  { pattern: /\bdocker\s+(system|volume)\s+prune\b/g, act: /\b(?:prun|delet)/i, guard: (m) => /^[^|;&\n]*\s(?:-[a-z]*f[a-z]*|--force)\b/.test(m.input.slice(m.index + m[0].length)) },
  { pattern: /\bmkfs(\.\w+)?\s/g, act: /\b(?:format|wip|eras)/i },
  { pattern: /\bdd\s+if=[^\n]*\bof=\/dev\//g, act: /\b(?:overwrit|wip|eras|flash)/i },
  { pattern: /\bchmod\s+-R\s+777\b/g, act: /\bpermissions?\b/i }
]

/** Whether a line names a destructive command, whatever its role (a repair checks what a new heading would expose). */
export const namesDestructive = (line: string): boolean =>
  DESTRUCTIVE.some((d) => [...line.matchAll(d.pattern)].some((m) => !d.guard || d.guard(m)))

/**
 * A download piped to a shell, with something to download: `curl | sh` and `curl ... | sh` name the
 * idiom; `| python3 -m json.tool` runs a module on the download as data, not the download.
 */
const PIPE_TO_SHELL =
  /\b(curl|wget|iwr|Invoke-WebRequest)\s+(?![.…]+\s*\|)[^\s|][^\n|]*\|\s*(sudo\s+(-\w+\s+)*)?((ba|z|k|da|fi)?sh|python3?(?!\s+-[mc]\b)|perl|ruby|node|iex|Invoke-Expression)\b|\b(ba|z)?sh\s+(-c\s+)?["']?\$?\(\s*(curl|wget)\b|\b(ba|z)?sh\s+<\(\s*(curl|wget)\b/

/** Reviewing or pinning the script before it runs. */
const SCRIPT_REVIEWED = /\b(checksum|sha256|shasum|gpg --verify|signature|review the script|read the script|inspect the script|pinned|verify the (script|download))\b/i

// ---------------------------------------------------------------- autonomy

/**
 * Unbounded autonomy phrased as a prohibition: forbidding the agent to stop or ask is the hazard. The
 * object must be the user or their approval ("never wait until the deadline" bounds nothing away), and
 * "without asking" only counts after a broad action ("proceed", "make changes"): "honour an existing
 * preference without asking" is one narrow decision, already made. "Stop" is the agent's own stopping
 * only when nothing it acts on follows ("never stop", "do not stop until …", "never stop to ask"):
 * "never stop running containers" forbids an act, and "do not stop at the first error" says to go on
 * through a list that ends. "Never ask the user to paste the key" forbids one request, not asking: only
 * asking the user to confirm, approve or decide is the bound it removes.
 */
const NEVER_STOP =
  /\b(never|do not|don't)\s+(stop(ping)?(?: to (?:ask|check|confirm|wait)|(?=\s*(?:[.;,:!)]|$|(?:until|till|before|for|working|trying|iterating|looping|retrying|early|prematurely|halfway|midway|partway|now|here|(?:and|or)\s+(?:ask|pause|wait|check|confirm|hesitate|report)|in the middle|at any)\b)))|paus(e|ing)( for| to)|wait(ing)? for (the user|approval|confirmation|permission|input|a (reply|response|go-ahead))|ask(ing)? (the user(?! to (?!(?:confirm|approve|decide|choose|check|review|verify)\b)[a-z])(?! for (?!(?:approval|permission|confirmation|input|a go-ahead|the go-ahead|a decision|sign-off)\b))|for (approval|permission|confirmation|input)|questions|before)|check(ing)? (in|back) with|request(ing)? (approval|permission|confirmation))\b|\b(never|do not|don't)\s+(stop|pause|ask)\s*[.;,]|\b(proceed|continue|act|go ahead|carry on|make (any|all|the) changes?|change (anything|everything)|do (it|anything|everything))\b[^.\n]{0,30}\bwithout (asking|approval|permission|confirmation|checking (in|with))\b/i

/**
 * "Do not wait for confirmation" where the paragraph names a result to come ("Start precautions on the
 * syndrome, before a lab result comes back"): the confirmation is the result's (a diagnosis), not the user's.
 */
const awaitsResult = (doc: Doc, n: number, sentence: string): boolean =>
  /\bwait(?:ing)? for confirmation\b/i.test(sentence) &&
  /\b(?:lab(?:oratory)?|test|diagnos\w*|culture|assay|biopsy|scan)s?\b[^.]{0,40}\b(?:results?|comes? back|confirm\w*)\b/i.test(unitText(doc, n))

/** The sentence is about what the agent does: an imperative, "you", "the agent", "yourself". */
const AGENT_DIRECTED = /^\s*(?:[-*+]|\d{1,3}[.)])?\s*(?:\*\*[^*]+\*\*:?\s*)?(?:[A-Z][a-z]+(?:\s|,)|you\b)|\b(you|yourself|the agent|claude|the assistant|the model)\b/i

/** Unbounded autonomy phrased as a permission or a push, unless it is itself forbidden. */
const UNBOUNDED: ReadonlyArray<RegExp> = [
  /\b(proceed|continue|act|go ahead|carry on)\b[^.\n]{0,30}\bwithout (asking|approval|permission|confirmation|checking|consulting)\b/i,
  // told to the agent: opening its clause or after "you"/"and"/"then" ("Stores keep working" says what stores do);
  // "keep going with hints" names what goes on, a scope, unless it goes on forever
  /(?:^|[.;:,!]\s*|\b(?:you|and|then|just|always|simply)\s+|^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\*\*[^*]+\*\*:?\s*)?)(keep|continue)\s+(going|trying|retrying|iterating|looping|working|running|until)\b(?!\s+with\b(?![^.\n]*\b(?:no matter|forever|indefinitely)\b))[^.\n]{0,40}?\b(until|till|no matter|forever|indefinitely)?/i,
  /\b(retry|loop|repeat|run)\b[^.\n]{0,40}\b(forever|indefinitely|endlessly|without (a |any )?limit|until it (works|succeeds|passes))\b/i,
  /\bdo (whatever|anything)\s+(it takes|is (needed|necessary|required)|necessary|you (need|want|must))\b/i,
  /\b(by any means( necessary)?|at any cost|whatever it takes)\b/i,
  /\b(full|unrestricted|unlimited|complete)\s+(access|autonomy|permissions?|authority|control)\b/i,
  /\b(work|act|operate)\s+(fully |completely )?autonomously\b/i,
  /\b(make|change|delete|modify|rewrite)\s+(any|every|whatever)\s+(change|file|setting|permission|thing)s?\b[^.\n]{0,40}\b(necessary|need|want|in the way|on the system|anywhere)\b/i,
  /\byou (may|can|are (free|allowed) to|have (full )?permission to)\s+(change|modify|delete|edit|rewrite|run|execute|install)\s+(anything|everything|any (file|command|thing)|whatever)\b/i
]

/**
 * A bound on the autonomy: an attempt limit, a stop condition, a scope, asking the user ("without
 * limit" is none, and "until it works" is the goal restated, not a condition that stops anything).
 */
const BOUNDED =
  /\b(\d+ (times|attempts|tries|minutes|iterations|rounds)|once|twice|three|two|five|max(imum)?|at most|no more than|(?<!without (a |any )?)limit(?! ?less)|budget|timeout|then stop|stop (and ask|when|if|after)|escalate|ask the user|check with the user|confirm with|only (in|inside|within|the|for|files?|this)|within (the|this|your)|until (?!it (works|succeeds|is (done|fixed|finished|complete))|the task is (done|complete|finished)|done\b|you (are|'re) done)\w+)\b/i

/** Describing a thing (a library, a tool) rather than telling the agent what to do. */
const DESCRIBES = /^\s*(?:[A-Z][\w.-]*\s+){0,3}(?:gives|provides|offers|allows|enables|lets|has|is|are|supports)\b/

/**
 * "Keep going until:" whose list gives the stop conditions, or a sentence followed by lines that bound
 * it (an attempt limit, a scope, asking the user): read with the list it opens.
 */
const boundedByList = (doc: Doc, line: number, sentence: string): boolean => {
  if (!/:\s*$/.test(sentence.trim())) return false
  const following: Array<string> = []
  for (let k = line + 1; k <= doc.split.lines.length && following.length < 8; k++) {
    const l = doc.split.lines[k - 1]!
    if (l.trim() === "") {
      if (following.length > 0) break
      continue
    }
    if (!/^\s*([-*+]|\d{1,3}[.)])\s/.test(l)) break
    following.push(l)
  }
  return following.length > 0
}

/**
 * A prohibition of acting without the user's say ("never stop running containers without asking",
 * "do not push without approval"): a double negative, it asks first, which bounds what it covers.
 */
const ASKS_FIRST = /\b(never|do not|don't|must not|mustn't)\b[^.;,]*\bwithout (?:first )?(asking|approval|permission|confirmation|confirming|checking with|consulting)\b/i

/**
 * The sentence that leads into the table holding row n ("Ask before the action if any of these is
 * true:"): what it says of the rows holds for each, as a block's lead-in does for its lines.
 */
const tableLeadIn = (doc: Doc, n: number): string => {
  const lines = doc.split.lines
  if (!/^\s*\|/.test(lines[n - 1] ?? "")) return ""
  let k = n
  while (k > 1 && /^\s*\|/.test(lines[k - 2]!)) k--
  const lead = leadInAbove(doc, k)
  return /:\s*$/.test(lead) ? lead : ""
}

/** The number of the step a line belongs to: its numbered item, else its "Step N" or "N." heading. */
const stepNumber = (doc: Doc, line: number, own: ListItem | undefined): number | undefined => {
  if (own !== undefined && own.ordered && own.indent === 0) return own.number
  const heading = headingAbove(doc, line)
  return heading === undefined ? undefined : stepNumberOf(plainText(heading.text)) ?? undefined
}

/** Acts that go on with the work, or destroy: a gate on them holds for the command. */
const GOING_ON = /^(?:proceed|continue|run|go|do|execute|start|act|apply|delete|remove|wipe|clear|erase|drop|purge|destroy|overwrite|reset|clean|empty|prune|move|rename|replace|push|deploy)$/i

/**
 * "Only say it if the user confirms it applies", "Send the letter only after they approve": a sentence
 * that gates an act of its own, named before the ask, holds for that act.
 */
const gatesOwnAct = (s: string): boolean => {
  // "Only say it …": the word after "only", a verb unless a connective or a pronoun ("Only then run …");
  // "Send it only after …": an imperative opening the sentence ("Removal goes ahead only after …" is no act of its own)
  const only = /^\W*only\s+([a-z]+)\b/i.exec(s)?.[1]?.toLowerCase()
  const opening = /^\W*([a-z]+)\b[^.;]{0,80}?\bonly\s+(?:if|when|after|once)\b/i.exec(s)?.[1]?.toLowerCase()
  const verb = only !== undefined && !STOP.has(only) ? only : opening !== undefined && IMPERATIVE_VERBS.has(opening) ? opening : undefined
  return verb !== undefined && !GOING_ON.test(verb)
}

/** What an approval names: going on, the act, the user's wish ("that they want the old notes gone"). */
const APPROVES = /\b(?:delet|remov|wip|clear|eras|overwrit|drop|destroy|purg|prun|clean|proceed|go ahead|continu|ok\b|okay|fine|want|approv|agree|ready|can (?:be|go)|safe to|may)/i

/** "Confirm with the user that sync is paused": a fact asked, not a go-ahead for what comes next. */
const asksAFact = (s: string): boolean => {
  const m = /\bconfirm(?:s|ing)?\s+with\s+(?:the user|them|a human)\s+that\b([^.;]*)/i.exec(s)
  return m !== null && !APPROVES.test(m[1]!)
}

/**
 * A confirmation that asks for something else: every sentence of its paragraph or step that asks
 * describes the skill as a whole ("This skill is read-only until Step 4, and Step 4 needs the user's
 * approval") or gates steps named by number other than the command's own ("Re-enable what you paused
 * in step 4 only when the user says so", above step 9). It asks nothing about this command.
 */
const asksElsewhere = (doc: Doc, k: number, asked: Asked): boolean => {
  const unit = unitText(doc, k)
  // a step above that opens on a case ("If the request went to the wrong office, note the date; ask the
  // user"): its ask holds in that case, not for the step after it
  const branch = /^\s*(?:\d{1,3}[.)]|[-*+])?\s*(?:\*\*[^*]+\*\*:?\s*)?if\b[^,;]*,/i.exec(unit)
  if (asked.before && branch !== null && !CONFIRMATION.test(branch[0])) return true
  const asking = sentencesOf(unit).map((raw) => ({ raw, s: plainText(raw) })).filter(({ s }) => CONFIRMATION.test(s) && !NEGATED_CONFIRMATION.test(s))
  return asking.length > 0 && asking.every(({ raw, s }) => {
    if (/^\W*(?:this|the) (?:skill|\w+ in this skill)\b/i.test(s)) return true
    if (gatesOwnAct(s) || asksAFact(s) || dryRunOfAnother(raw, asked.command)) return true
    const named = [...s.matchAll(/\bsteps?\s+(\d+)\b/gi)].map((m) => Number(m[1]))
    // "Deletion is the last step, … only after the user has approved": a command in no step is not it
    // so is "Each phase needs its own explicit approval" there: it says what the steps do
    if (named.length === 0 && asked.step === undefined && /\b(?:last|final) step\b|\b(?:each|every) (?:phase|step|stage)\b/i.test(s)) return true
    return named.length > 0 && (asked.step === undefined || !named.includes(asked.step))
  })
}

/** What a confirmation above is weighed against: the command, its step's number, whether the line is in a step before its own. */
interface Asked {
  readonly command: string
  readonly step: number | undefined
  readonly before: boolean
}

/**
 * "Dry-run the query to see what it would scan: `bq query --dry_run …`" above `DROP TABLE`: a dry run
 * previews the program it runs, and asks nothing of another one's command. "Compare the counts with
 * the dry-run summary" names an earlier run's result: it previews nothing here.
 */
const dryRunOfAnother = (raw: string, command: string): boolean => {
  if (!/dry[-_ ]?run/i.test(raw) || CONFIRMATION.test(plainText(raw).replace(/-{0,2}dry[-_ ]?run\w*/gi, " "))) return false
  if (/\b(?:the|its|that|this|your)\s+dry[-_ ]?run(?:'s)?\s+(?:summary|output|results?|report|counts?|numbers|totals?)\b/i.test(raw)) return true
  const code = [...raw.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim().split(/\s+/)[0]!.toLowerCase())
  const program = command.trim().split(/\s+/)[0]!.toLowerCase()
  return code.length > 0 && !code.includes(program)
}

/**
 * Whether the lines right above a command, in its section, ask the user and wait: the step holding
 * the command and the step before it (a prompt shown in the block above, "ask the user and wait for a
 * yes"). A confirmation in another part of the procedure says nothing about this command.
 */
const confirmedAbove = (doc: Doc, line: number, command: string): boolean => {
  const lines = doc.split.lines
  const sectionStart = headingAbove(doc, line)?.line ?? doc.md.bodyStartLine
  const own = doc.md.listItems.filter((i) => i.line <= line && !doc.md.inCode[i.line]).at(-1)
  let steps = 0
  for (let k = line - 1; k > sectionStart; k--) {
    const l = lines[k - 1]!
    const item = doc.md.listItems.find((i) => i.line === k && !doc.md.inCode[k])
    // the step holding the command (its item line is the command's own when the step is one line) and
    // the step before it; further up is another part of the procedure
    const step = item && (own === undefined || item.indent <= own.indent) && (own === undefined || item.line !== own.line)
    if (step && own === undefined && ++steps > 1) return false
    const asked = { command, step: stepNumber(doc, line, own !== undefined && own.line > sectionStart ? own : undefined), before: own !== undefined && k < own.line }
    if (CONFIRMATION.test(l) && !NEGATED_CONFIRMATION.test(l) && !asksElsewhere(doc, k, asked)) return true
    // the step before the command's own ends at its first line: what lies above it (the body of the step
    // before that, its sub-bullets and code) is another step
    if (step && own !== undefined) return false
    if (line - k > 15) return false
  }
  return false
}

/** A sentence that opens on a case ("If anything fails halfway, run …"): what it runs is a branch of its own. */
const CASE_OPENING = /^\W*(?:\d{1,3}[.)]\s*)?(?:\*\*[^*]+\*\*:?\s*)?(?:if|when|whenever|unless|should)\b/i

/**
 * A command in a numbered step ("## 6. Drop") that an earlier step of the same run gates: it asks the
 * user and waits, naming the act ("## 4. Get approval": "I'm ready to drop these N partitions … Reply
 * \"drop N partitions\" to continue. Wait for that reply."). The procedure's gate holds for the act it
 * names, steps later, on what it names: the ask and the command share a word of what they act on
 * ("partitions", "events"). Not for a command run in a case ("If anything fails, run `DROP TABLE …`"),
 * nor for one on something the ask never names (`rm -rf ./*` "in the project root" after an approved
 * erasure plan): the gate approved the planned act, not this one.
 */
const gatedByEarlierStep = (doc: Doc, line: number, act: RegExp, lead: string): boolean => {
  const own = headingAbove(doc, line)
  const n = own === undefined ? null : stepNumberOf(plainText(own.text))
  if (own === undefined || n === null || CASE_OPENING.test(plainText(lead))) return false
  // what the command acts on: the words of its line and its lead-in, the act's own verb aside
  const objects = new Set(contentWordsApart(`${doc.split.lines[line - 1]!} ${plainText(lead)}`).filter((w) => w.length >= 4 && !act.test(w)))
  for (const h of [...doc.md.headings].reverse()) {
    if (h.line >= own.line || h.level > own.level) continue
    // the run's parent heading: no earlier step of this run above it
    if (h.level < own.level) return false
    const k = stepNumberOf(plainText(h.text))
    if (k === null || k >= n) continue
    const end = sectionEnd(doc, h)
    for (let l = h.line + 1; l < end; l++) {
      if (doc.md.inCode[l] || !CONFIRMATION.test(doc.split.lines[l - 1]!)) continue
      // the ask names the act itself, or shows the prompt that does in a quote right by it
      const asks = sentencesOf(plainText(renderedLine(doc, l))).filter((x) => CONFIRMATION.test(x) && !NEGATED_CONFIRMATION.test(x))
      const prompt = doc.split.lines.slice(Math.max(h.line, l - 4), Math.min(end - 1, l + 3)).filter((x) => /^\s*>/.test(x))
      const said = [...asks, ...prompt].map((x) => plainText(x))
      if (asks.length > 0 && said.some((x) => act.test(x)) && contentWordsApart(said.join(" ")).some((w) => objects.has(w))) return true
    }
  }
  return false
}

/**
 * The paragraph right after a code block is its caveat: when it asks the user, or says what the command
 * loses and what to check first ("This discards everything since the backup, including uncommitted
 * edits, so run `git status` first."), the block's command is guarded by it.
 */
const LOSS = /\b(discards?|deletes?|removes?|erases?|overwrites?|destroys?|loses?|wipes?)\b/i
const caveatBelow = (doc: Doc, endLine: number): boolean => {
  const lines = doc.split.lines
  let k = endLine + 1
  while (k <= lines.length && lines[k - 1]!.trim() === "") k++
  const para: Array<string> = []
  for (; k <= lines.length && para.length < 4; k++) {
    const l = lines[k - 1]!
    if (l.trim() === "" || doc.md.inCode[k] || /^#{1,6}\s/.test(l)) break
    para.push(l)
  }
  const text = para.join(" ")
  if (CONFIRMATION.test(text) && !NEGATED_CONFIRMATION.test(text)) return true
  return LOSS.test(text) && /\bfirst\b/i.test(text)
}

// ---------------------------------------------------------------- scan


const scanned = new WeakMap<Doc, Array<Finding>>()

/** Every hazard in the document, in line order (computed once per document). */
export const scanHazards = (doc: Doc): Array<Finding> => {
  const hit = scanned.get(doc)
  if (hit) return hit
  const found = scan(doc)
  scanned.set(doc, found)
  return found
}

/** Lines carrying a hazard: they never count as a rule, a check or failure handling. */
export const hazardLines = (doc: Doc): ReadonlySet<number> => new Set(scanHazards(doc).map((f) => f.line))

const sends = (x: string) => (SEND.test(x) && SENSITIVE.test(x) && OUTSIDE.test(x)) || CURL_UPLOAD.test(x)

/** A value computed the first time it is asked for. */
const lazily = <A>(compute: () => A): (() => A) => {
  let value: { readonly a: A } | undefined
  return () => (value ??= { a: compute() }).a
}

const scan = (doc: Doc): Array<Finding> => {
  const out: Array<Finding> = []
  const lines = doc.split.lines
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1
    const line = lines[i]!
    // a blank line holds no hazard
    if (line.trim() === "") continue
    // secrets: prefixed tokens, PEM private keys, named literals
    for (const re of TOKEN_PATTERNS) {
      re.lastIndex = 0
      let m: RegExpExecArray | null
      while ((m = re.exec(line)) !== null) if (looksRandom(m[0])) out.push({ hazard: "secret", line: n, match: m[0] })
    }
    if (/-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/.test(line)) {
      const end = lines.findIndex((l, j) => j > i && /-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/.test(l))
      const body = lines.slice(i + 1, end < 0 ? i + 2 : end).join("")
      if (/[A-Za-z0-9+/=]{24,}/.test(body) && !PLACEHOLDER.test(body)) {
        out.push({ hazard: "secret", line: n, match: line.trim(), endLine: end < 0 ? n : end + 1 })
      }
    }
    ASSIGNED.lastIndex = 0
    let a: RegExpExecArray | null
    while ((a = ASSIGNED.exec(line)) !== null) {
      const value = a[2]!
      if (looksRandom(value) && !out.some((f) => f.line === n && f.hazard === "secret" && (f.match.includes(value) || value.includes(f.match)))) {
        out.push({ hazard: "secret", line: n, match: value })
      }
    }
    // instructions, judged sentence by sentence so a warning next to a command does not hide it
    const inCode = doc.md.inCode[n] === true
    // a payload quoted to test with, or text a document is reported to say, is not said to the agent
    // (both read only when a sentence needs them: most lines hold nothing to weigh)
    const ownLine = lazily(() => ownWords(doc, n))
    const prohibited = lazily(() => prohibitedList(doc, n))
    for (const s of sentencesOf(line)) {
      const injects = !inCode && INJECTION.test(s)
      const exfiltrates = sends(s)
      if (!injects && !exfiltrates) continue
      const negated = NEGATED.test(s) || prohibited()
      if (injects && !negated && INJECTION.test(ownLine())) out.push({ hazard: "prompt_injection", line: n, match: s.trim() })
      if (exfiltrates && sends(ownLine()) && !negated) out.push({ hazard: "exfiltration", line: n, match: s.trim() })
    }
    // autonomy is read in whole sentences, as they render across hard-wrapped lines: "Never ask the
    // user for⏎their password" forbids one request, where the line alone reads as "never ask"
    for (const s of inCode ? [] : sentencesOf(renderedLine(doc, n))) {
      const negated = NEGATED.test(s) || prohibited()
      // a bound said under a negation is none: "never stop to ask the user" does not stop to ask
      const bounded = BOUNDED.test(s.replace(/\b(never|do not|don't|without)\b[^,;.]*/gi, "")) || ASKS_FIRST.test(s) || boundedByList(doc, n, s)
      // words in quotes are somebody's (a question asked, a phrase to try), not an instruction to the agent
      const own = withoutQuotes(s)
      const pushes = !negated && UNBOUNDED.some((re) => re.test(own)) && AGENT_DIRECTED.test(own) && !DESCRIBES.test(own)
      if (!bounded && ((NEVER_STOP.test(own) && !awaitsResult(doc, n, own)) || pushes)) {
        out.push({ hazard: "unbounded", line: n, match: s.trim() })
      }
    }
    // commands; the frontmatter describes the skill ("Use before running `curl … | sh` one-liners") and runs nothing
    if (n < doc.md.bodyStartLine) continue
    // a confirmation counts in the command's own line or sentence, or in the lines that introduce the
    // code block holding it; a "confirm" in another step says nothing about this command
    const block = inCode ? doc.md.codeBlocks.find((b) => b.startLine < n && n <= b.endLine) : undefined
    const nearby = block
      ? [line, ...lines.slice(Math.max(0, block.startLine - 3), block.startLine - 1)].join("\n")
      : [line, tableLeadIn(doc, n)].join("\n")
    for (const d of DESTRUCTIVE) {
      d.pattern.lastIndex = 0
      let m: RegExpExecArray | null
      while ((m = d.pattern.exec(line)) !== null) {
        if (d.guard && !d.guard(m)) continue
        // in prose, the sentence as it renders: a hard-wrapped "Don't run" or "and the user agrees" on the next line counts
        const sentence = inCode ? undefined : proseSentence(doc, n, m.index, m.index + m[0].length)
        if (sentence && (NEGATED.test(line.slice(0, m.index)) || NEGATED.test(sentence.before))) continue
        if (notAnInstruction(doc, n, m.index, m.index + m[0].length, m[0])) continue
        const asked = sentence !== undefined && CONFIRMATION.test(sentence.whole) && !NEGATED_CONFIRMATION.test(sentence.whole)
        if (asked || DISPOSABLE_PLACE.test(sentence?.whole ?? nearby) || CONFIRMATION.test(nearby) || confirmedAbove(doc, n, m[0]) || (block !== undefined && caveatBelow(doc, block.endLine)) || markedToConfirm(doc, n) || confirmedEverywhere(doc, m[0])) continue
        if (gatedByEarlierStep(doc, n, d.act, block ? leadInAbove(doc, block.startLine) : sentence?.whole ?? line)) continue
        out.push({ hazard: "destructive", line: n, match: m[0].trim() })
      }
    }
    const pipe = PIPE_TO_SHELL.exec(line)
    // a checksum near the pipe guards it only when it checks the script or the download, not another file
    // (its lead-in says so: the command's own `install.sh` does not make "record a checksum" of an export about it)
    const lead = nearby.slice(line.length)
    const reviewed = SCRIPT_REVIEWED.test(line) || (SCRIPT_REVIEWED.test(lead) && /\b(script|installer|install|download)/i.test(lead))
    // the same roles as a destructive command's: a quoted mistake, a sentence about it, the road not taken
    const pipeNamed = pipe !== null && notAnInstruction(doc, n, pipe.index, pipe.index + pipe[0].length, pipe[0])
    if (pipe && !(!inCode && NEGATED.test(line.slice(0, pipe.index))) && !reviewed && !pipeNamed) {
      out.push({ hazard: "pipe_to_shell", line: n, match: pipe[0].trim() })
    }
  }
  // one finding per hazard and line
  const seen = new Set<string>()
  return out.filter((f) => {
    const key = `${f.hazard}:${f.line}:${f.match}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const clip = (s: string, n = 70) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)
const maskSecret = (s: string) => (s.length <= 8 ? "****" : `${s.slice(0, 4)}…${s.slice(-2)}`)

export const safety = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("safety", ctx.disabledRules)
  // one finding per line and kind (a line may hold two unbounded sentences); every secret counts
  const seen = new Set<string>()
  const hazards = scanHazards(ctx.doc).filter((f) => {
    const key = `${f.hazard}:${f.line}:${f.hazard === "secret" ? f.match : ""}`
    if (o.isDisabled(f.hazard) || seen.has(key)) return false
    seen.add(key)
    return true
  })
  const count = (h: Hazard) => hazards.filter((f) => f.hazard === h).length
  for (const f of hazards) {
    switch (f.hazard) {
      case "secret":
        o.issue(
          "secret",
          "critical",
          f.line,
          `A secret in the text (${quote(maskSecret(f.match), 20)}): anyone who reads the skill can use it, and agents copy it into logs and commits`,
          "Remove it, rotate it now, and have the agent read it from an environment variable or a secret store.",
          f.endLine ?? f.line
        )
        break
      case "prompt_injection":
        o.issue(
          "prompt_injection",
          "critical",
          f.line,
          `An instruction to ignore earlier instructions (${quote(clip(f.match))}): it overrides the user's and the system's rules`,
          "Delete it; an artifact adds rules, it never cancels the ones above it."
        )
        break
      case "exfiltration":
        o.issue(
          "exfiltration",
          "critical",
          f.line,
          `An instruction to send data or credentials elsewhere (${quote(clip(f.match))})`,
          "Delete it; secrets and user data stay on the machine unless the user asks otherwise."
        )
        break
      case "destructive":
        o.issue(
          "destructive",
          "critical",
          f.line,
          `\`${clip(f.match, 50)}\` destroys data and nothing asks before it runs`,
          "Ask the user to confirm first (naming what will be lost), or use the safe variant (a dry run, --force-with-lease, a backup)."
        )
        break
      case "pipe_to_shell":
        o.issue(
          "pipe_to_shell",
          "critical",
          f.line,
          `A remote script piped straight into a shell (\`${clip(f.match, 50)}\`): whatever the server sends runs unseen`,
          "Download the script to a file, read it (or check its checksum), then run it."
        )
        break
      case "unbounded":
        o.issue(
          "unbounded",
          "major",
          f.line,
          `Unbounded autonomy (${quote(clip(f.match))}): nothing limits what the agent does or when it stops`,
          "Bound it: how many attempts, which files or commands, and when to stop and ask the user."
        )
        break
    }
  }
  const critical = count("secret") + count("prompt_injection") + count("exfiltration") + count("destructive") + count("pipe_to_shell")
  const major = count("unbounded")
  // the first critical problem costs most; every hazard costs something
  if (critical > 0) o.deduct(Math.min(100, 60 + 20 * (critical - 1)), `${critical} critical safety problem(s)`, null)
  if (major > 0) o.deduct(Math.min(60, 30 + 15 * (major - 1)), `${major} unsafe instruction(s)`, null)
  if (hazards.length === 0) o.note("no secrets, injected instructions, unguarded destructive commands or unbounded autonomy")
  return o.done()
}
