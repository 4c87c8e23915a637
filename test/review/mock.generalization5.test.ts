/**
 * Near misses from the eighth round of samples (issue 22: the rules must read structure and carry to
 * skills never seen), written in the common shapes of public skills: long references with Overview,
 * Quick Start, Best Practices, Common Pitfalls and Resources; `### 1.` workflows; discipline skills;
 * CLI flag references. Each wrong finding the sixteen new samples drew, as the smallest text that drew
 * it, next to the real problem the rule is for, which it must still report.
 */
import { describe, expect, it } from "@effect/vitest"
import { reviewText as review, ruleIds as ids } from "./support.js"


const FRONT = "---\nname: image-builds\ndescription: Builds small container images for services. Use when the user writes or reviews a Dockerfile.\n---\n\n"
const TITLE = "# Image Builds\n\nSmall images build faster and ship fewer packages to patch.\n\n"
const STEPS = "## Steps\n\n1. Build the image with `docker build -t app .`.\n2. Read the layer sizes with `docker history app`.\n3. Rebuild after each change.\n\n"

describe("SK-SAFE-DESTRUCTIVE: a package manager's cache, a quoted mistake, a block with its caveat below", () => {
  const practices = (item: string) => `${FRONT}${TITLE}${STEPS}## Best Practices\n\n- ${item}\n- Use \`COPY\`, not \`ADD\`.\n`

  it("clearing apt's index lists in a RUN is a cache, refetched by the next update; the same rm -rf on data still is destructive", () => {
    expect(ids(review(practices("End each `apt-get install` with `rm -rf /var/lib/apt/lists/*`.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(practices("End each build with `rm -rf /var/lib/app/data/*`.")))).toContain("SK-SAFE-DESTRUCTIVE")
  })

  const mistakes = (heading: string, item: string) => `${FRONT}${TITLE}${STEPS}## ${heading}\n\n- ${item}\n- Tagging images \`latest\`.\n`

  it("an item of a Don't or Pitfalls list naming a command quotes the mistake; an instruction to run it there, or the item under another heading, still is one", () => {
    expect(ids(review(mistakes("Don't", "`git push -f origin main`: overwrites everyone's history.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(mistakes("Common Pitfalls", "**Deleting in a later layer.** `RUN rm -rf /src/test` after `COPY . .` still ships the files.")))).not.toContain(
      "SK-SAFE-DESTRUCTIVE"
    )
    expect(ids(review(mistakes("Don't", "If the push is rejected, run `git push -f origin main`.")))).toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(mistakes("Cleanup", "`git push -f origin main` to publish the rewrite.")))).toContain("SK-SAFE-DESTRUCTIVE")
  })

  const undo = (after: string) => `${FRONT}${TITLE}${STEPS}## Undo\n\n\`\`\`bash\ngit reset --hard backup/main-1700000000\n\`\`\`\n\n${after}\n`

  it("a block whose next paragraph says what it discards and what to check first is guarded; a paragraph that only explains it is not", () => {
    expect(ids(review(undo("This discards everything since the backup, including uncommitted edits, so run `git status` first.")))).not.toContain(
      "SK-SAFE-DESTRUCTIVE"
    )
    expect(ids(review(undo("Run it only after the user confirms.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(undo("This moves the branch to where it started.")))).toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-STRUCT-RUN-TOGETHER: bullets that explain the code block right above them", () => {
  const section = (bullets: string) =>
    `${FRONT}${TITLE}${STEPS}## Types\n\nConvert each column explicitly:\n\n\`\`\`python\ndf["amount"] = pd.to_numeric(df["amount"], errors="coerce")\nawait expect(page).toHaveCount(3)\n\`\`\`\n\n${bullets}\n## Output\n\nThe cleaned frame.\n`

  it("a list quoting a piece of the block in inline code annotates it; a list quoting nothing of it still runs together", () => {
    expect(ids(review(section("- `errors=\"coerce\"` turns bad values into NaN.\n- Count what failed before moving on.\n")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(section("- `toHaveCount` waits for the list to settle.\n- Nothing else retries.\n")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(section("- Never run `pip install` as root.\n- Keep the raw file untouched.\n")))).toContain("SK-STRUCT-RUN-TOGETHER")
  })
})

describe("SK-STEPS-MISSING: a tool reference written as independent one-command recipes", () => {
  const TOOL = "---\nname: media-convert\ndescription: Builds ffmpeg command lines for common conversions. Use when the user wants to convert or trim media.\n---\n\n# Media Convert\n\nEvery command writes a new file and leaves the input alone.\n\n"
  const recipe = (title: string, cmd: string) => `### ${title}\n\nThe flags are explained in the table above.\n\n\`\`\`bash\n${cmd}\n\`\`\`\n\n`
  const recipes = [
    recipe("Audio only", "ffmpeg -i in.mp4 -vn -c:a copy out.m4a"),
    recipe("A clip without re-encoding", "ffmpeg -ss 00:01:00 -to 00:02:00 -i in.mp4 -c copy clip.mp4"),
    recipe("Thumbnail at a timestamp", "ffmpeg -ss 12 -i in.mp4 -frames:v 1 thumb.jpg")
  ]

  it("three sections of one short command each are a cookbook with no procedure to number; two, or a job told in prose, still lack steps", () => {
    expect(ids(review(`${TOOL}## Recipes\n\n${recipes.join("")}`))).not.toContain("SK-STEPS-MISSING")
    expect(ids(review(`${TOOL}## Recipes\n\n${recipes.slice(0, 2).join("")}`))).toContain("SK-STEPS-MISSING")
    expect(ids(review(`${TOOL}## Converting\n\nProbe the input with ffprobe, pick the codec from its streams, convert it with ffmpeg, then compare the durations of input and output and report the sizes.\n`))).toContain("SK-STEPS-MISSING")
  })
})

describe("SK-CONS-UNDO-STEP: \"a failed run\" names the thing, it puts no condition on the step", () => {
  const flaky = (last: string) =>
    `${FRONT}${TITLE}## Debugging a Flaky Test\n\n1. Run it alone twenty times: \`npx playwright test a.spec.ts --repeat-each=20\`.\n2. Open the trace of a failed run: \`npx playwright show-trace trace.zip\`.\n3. Find the action before the failure.\n4. ${last}\n`

  it("a later step closing what an earlier step opened is reported even when its object is \"a failed run\"; a step that only runs if something failed is not", () => {
    expect(ids(review(flaky("Finally, close the trace of a failed run.")))).toContain("SK-CONS-UNDO-STEP")
    expect(ids(review(flaky("If the fix failed, close the trace and start again.")))).not.toContain("SK-CONS-UNDO-STEP")
  })
})
