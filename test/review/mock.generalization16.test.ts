/**
 * Near misses, forty-seventh stop (issue 22): the forty-fourth round of skills written blind, read once.
 * Each wrong finding as the smallest text next to the text the rule must still catch.
 */
import { describe, expect, it } from "@effect/vitest"
import { reviewWithMock } from "../../src/review/mock/MockReviewer.js"
import { file, fileInput, ruleIds as ids, reviewText as review, sampleBundle, severityOf, withTarget } from "./support.js"

const GIT = "---\nname: history-rewrite\ndescription: Rewrites a branch's commits safely, with a backup first. Use when asked to clean up commits before review.\n---\n\n# History rewrite\n\n## Steps\n\n1. Fetch: `git fetch origin`.\n2. Rebase onto main: `git rebase origin/main`.\n3. Run the tests.\n\n"

describe("SK-SAFE-DESTRUCTIVE: a command kept to a place made for it", () => {
  const doc = (where: string) =>
    `---\nname: bisect-regressions\ndescription: Finds the commit that introduced a regression with git bisect run. Use when a test passed on an older release.\n---\n\n# Bisecting\n\n## Steps\n\n1. Write the check script.\n2. Run \`git bisect run ./check.sh\`.\n\n## Pitfalls\n\n- **Stale build output.** Clean in the script (\`make clean\`, \`git clean -fdx\`${where}, since it deletes ignored files such as \`.env\`).\n`
  it("\"only inside a dedicated clone\" destroys nobody's data; the same command in the user's checkout does", () => {
    expect(ids(review(doc(" only inside a dedicated clone or worktree")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc(" inside a throwaway container")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("")))).toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc(" inside your working copy")))).toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-SAFE-DESTRUCTIVE: a rule of the whole text that the command is confirmed first", () => {
  const table = "## Quick reference\n\n| Goal | Command |\n|---|---|\n| Update onto main | `git rebase origin/main` |\n| Undo the rewrite you just did | `git reset --hard backup/work` |\n\n"
  it("\"Never use `git reset --hard` … without getting confirmation\" covers the table's row; a rule on another command does not", () => {
    expect(ids(review(`${GIT}${table}## Never\n\n- Use \`git reset --hard\` or \`git push --force\` without showing the user what will be lost and getting\n  confirmation\n`))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(`${GIT}${table}## Rules\n\nAlways ask the user before \`git reset --hard\` or a force push.\n`))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(`${GIT}${table}## Never\n\n- Use \`git push --force\` without getting confirmation\n`))).toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(`${GIT}${table}`))).toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-SAFE-DESTRUCTIVE: a series of commands under a heading that forbids them", () => {
  const doc = (title: string) => `${GIT}## ${title}\n\n- Use \`git reset --hard\`, \`git push --force\` or \`git clean -fdx\` on a branch someone else has fetched\n`
  it("each command of the series completes \"Never\"; under another heading the item runs them", () => {
    expect(ids(review(doc("Never")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Cleaning up")))).toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-STRUCT-RUN-TOGETHER: lists of the same frame", () => {
  const doc = (second: string) =>
    `---\nname: review-replies\ndescription: Replies to code review comments with facts and fixes. Use when a pull request has review comments to answer.\n---\n\n# Review replies\n\n## Steps\n\n1. Read every comment.\n2. Fix or answer each one.\n\n## Tone\n\nBe factual and say what changed.\n\n- **Bad:** "Great catch, you're absolutely right! Thanks so much!"\n- **Good:** "Fixed: \`parse_date\` now rejects offsets without a colon."\n\n${second}\n`
  it("Bad/Good pairs spaced apart are one list; a list on other labels right after is another part", () => {
    expect(ids(review(doc("- **Bad:** \"I don't think that's necessary.\"\n- **Good:** \"`retry_limit` is validated in `Config.load`; OK to leave it?\"")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(doc("- **Reviewers:** assign the code owners of the files you touched.\n- **Labels:** add the area label and the release label.")))).toContain("SK-STRUCT-RUN-TOGETHER")
  })
})

describe("SK-STRUCT-RUN-TOGETHER: rules an overview names", () => {
  const doc = (lead: string) =>
    `---\nname: history-rewrite\ndescription: Rewrites a branch's commits safely, with a backup first. Use when asked to clean up commits before review.\n---\n\n# History rewrite\n\n## Overview\n\nEvery rewrite makes new commits and moves the branch to them. On a branch others have fetched, it forks history under their feet.\n\n${lead}\n\n1. **Back up first.** Create a ref to the current tip before any rewrite.\n2. **Rewrite only what is yours,** unless the user has agreed otherwise.\n3. **Never force-push without asking,** and use \`--force-with-lease\` when you do.\n\n## Amend the last commit\n\nRun \`git commit --amend --no-edit\` and check the result with \`git show --stat\`.\n`
  it("\"Three rules cover most of the risk:\" leads into the overview's rules; \"To rewrite a branch:\" into steps that lost their heading", () => {
    expect(ids(review(doc("Three rules cover most of the risk:")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(doc("To rewrite a branch:")))).toContain("SK-STRUCT-RUN-TOGETHER")
  })
})

describe("SK-DESC-NO-TRIGGER: \"Use every time …\"", () => {
  const doc = (use: string) => `---\nname: verify-before-done\ndescription: Requires running the commands that prove a claim before saying work is done.${use}\n---\n\n# Verify before done\n\n## Steps\n\n1. Name the command that proves the claim.\n2. Run it and read the output.\n3. Report what it shows.\n`
  it("says when, as \"Use whenever\" does; without it the description says only what", () => {
    expect(ids(review(doc(" Use every time you are about to report success or open a pull request.")))).not.toContain("SK-DESC-NO-TRIGGER")
    expect(ids(review(doc("")))).toContain("SK-DESC-NO-TRIGGER")
  })
})

describe("SK-CLAR-PLACEHOLDER: filler text quoted as what a design holds", () => {
  const doc = (line: string) => `---\nname: frame-to-components\ndescription: Turns a design frame into UI components. Use when the user shares a frame to build.\n---\n\n# Frame to components\n\n## Steps\n\n1. Read the frame.\n2. Build each component with its props.\n\n## Props\n\n${line}\n`
  it("placeholder copy in quotes (\"Lorem ipsum\", \"Jane Doe\") is named; filler left in the text is a gap", () => {
    expect(ids(review(doc("Placeholder copy in the design (\"Lorem ipsum\", \"Jane Doe\") is sample data: put it in stories, not in the component.")))).not.toContain("SK-CLAR-PLACEHOLDER")
    expect(ids(review(doc("Lorem ipsum dolor sit amet, consectetur adipiscing elit.")))).toContain("SK-CLAR-PLACEHOLDER")
  })
})

describe("SK-VERIFY-MISSING: looking at what the work produced", () => {
  const doc = (step: string) =>
    `---\nname: seeded-art\ndescription: Makes seeded generative artwork as an HTML viewer with PNG stills. Use when the user asks for generative art in the browser.\n---\n\n# Seeded art\n\n## Workflow\n\n1. Write the concept in three sentences.\n2. Install the renderer: run \`pip install playwright\` and \`playwright install chromium\`.\n3. Render stills:\n   \`\`\`bash\n   python render.py artwork.html --seeds 1 2 3 --out renders/\n   \`\`\`\n   ${step}\n4. Deliver the HTML and the best stills.\n`
  it("\"Look at every PNG\" checks the result by eye; looking at the existing code checks nothing", () => {
    expect(ids(review(doc("Look at every PNG. Judge composition and colour, then adjust.")))).not.toContain("SK-VERIFY-MISSING")
    expect(ids(review(doc("Inspect the rendered stills before you deliver them.")))).not.toContain("SK-VERIFY-MISSING")
    expect(ids(review(doc("Look at the existing sketches for ideas.")))).toContain("SK-VERIFY-MISSING")
  })
})

describe("SK-FMT-ABSOLUTE-PATH: a path named as the thing to scrub", () => {
  const doc = (line: string) =>
    `---\nname: notebook-cleanup\ndescription: Cleans a Jupyter notebook before it is shared. Use when a notebook is about to be pushed or sent.\n---\n\n# Notebook cleanup\n\n## Steps\n\n1. Clear the outputs with \`jupyter nbconvert --clear-output --inplace nb.ipynb\`.\n2. ${line}\n3. Run the notebook top to bottom and check that it finishes.\n`
  it("\"Replace `/Users/jane/…` with a relative path\" fixes the machine path; reading it relies on one", () => {
    expect(ids(review(doc("Replace `/Users/jane/Downloads/q3_export.csv` with a path relative to the repo.")))).not.toContain("SK-FMT-ABSOLUTE-PATH")
    expect(ids(review(doc("Never hard-code paths like `/home/ci/cache` in a cell.")))).not.toContain("SK-FMT-ABSOLUTE-PATH")
    expect(ids(review(doc("Load the data from `/Users/jane/Downloads/q3_export.csv`.")))).toContain("SK-FMT-ABSOLUTE-PATH")
  })
})

describe("SK-STRUCT-ENDS-EARLY: a last step whose text closes the work", () => {
  const doc = (close: string) =>
    `---\nname: point-in-time-restore\ndescription: Restores a MySQL table to a point in time from a backup and the binary logs. Use when rows were deleted by mistake.\n---\n\n# Point-in-time restore\n\n## 1. Find the stop point\n\nSearch the binary logs for the bad statement and note its position.\n\n## 2. Restore the backup\n\nRestore the last full backup to a new instance. Replay the logs up to the stop point.\n\n## 3. Bring the data back (ask first)\n\nPresent the options and their costs, and let the user decide. Load the table into a scratch schema on production and merge from there.${close}\n`
  it("\"Finally, give the user a short timeline\" ends the procedure; a step with no close still looks cut", () => {
    expect(ids(review(doc("\n\nFinally, give the user a short timeline: the backup used, the range replayed and the row counts.")))).not.toContain("SK-STRUCT-ENDS-EARLY")
    expect(ids(review(doc("")))).toContain("SK-STRUCT-ENDS-EARLY")
  })
})

describe("SK-EX-ONLY-IN-FILES: templates the output is made from (a note, not a finding)", () => {
  const doc = (how: string) =>
    `---\nname: survey-planner\ndescription: Plans a bird point-count survey and writes a survey plan and a field datasheet. Use when a user designs a breeding-bird count for a site.\n---\n\n# Survey planner\n\nThe output is two files in the user's project folder: \`survey-plan.md\`, ${how} [templates/survey-plan.md](templates/survey-plan.md), and \`datasheet.csv\`.\n\n## Start with the question\n\nAsk the user what the counts are for, and write the answer into the plan in one sentence.\n\n## Lay out the points\n\nPlace the points at least 250 m apart on a grid, and record each point's coordinates in the plan.\n`
  const withTemplate = (content: string) => {
    const { target, files } = withTarget([...sampleBundle(), file("templates/survey-plan.md", "# Survey plan: <Site>\n\n## 1. Question\n\n<one sentence>\n")], "SKILL.md", content)
    return reviewWithMock(fileInput(target, files))
  }
  it("\"filled in from [templates/…]\" sends the agent to the form where it writes the output; a file only named is a sample hidden away", () => {
    expect(severityOf(withTemplate(doc("filled in from")), "SK-EX-ONLY-IN-FILES")).toBe("info")
    expect(severityOf(withTemplate(doc("which looks like")), "SK-EX-ONLY-IN-FILES")).toBe("minor")
  })
})

describe("SK-CONS-ALWAYS-NEVER: a step with its purpose after \", so …\"", () => {
  const doc = (rule: string) =>
    `---\nname: decision-log\ndescription: Records technical decisions in an append-only log. Use when a choice between real alternatives is made.\n---\n\n# Decision log\n\n## What counts\n\nLog a choice a reasonable engineer might question later.${rule}\n\n## Rules\n\n1. **Write it at the time of the decision**, not at the end of the task.\n2. **Append, never rewrite.** Mark a reversed entry as superseded.\n3. **Mention new entries to the human** in your end-of-task summary, so they can object while it's cheap.\n`
  it("the purpose names no case: \"Never mention new entries … in your summary\" still opposes the step", () => {
    expect(ids(review(doc("\n\nNever mention new entries to the human in your end-of-task summary.")))).toContain("SK-CONS-ALWAYS-NEVER")
    expect(ids(review(doc("")))).not.toContain("SK-CONS-ALWAYS-NEVER")
  })
})

describe("SK-STEPS-MISSING: a checklist to copy, in a code block", () => {
  const doc = (marker: string) =>
    `---\nname: codebase-onboarding\ndescription: Maps an unfamiliar repository before changing it. Use at the start of work in a repository you have not seen.\n---\n\n# Codebase onboarding\n\nChanges made before you know the conventions are the ones reviewers reject.\n\n## Checklist\n\nCopy this into your todo list and tick items off as you go:\n\n\`\`\`\n${marker} Read the contributor docs (AGENTS.md, CONTRIBUTING.md, README)\n${marker} Find and run the test command; record the baseline result\n${marker} Trace one real request from entry point to storage\n${marker} Write the orientation summary and confirm it with the human\n\`\`\`\n\n## Notes\n\n**Build and test.** The CI config is what actually runs: read it first.\n`
  it("\"- [ ] …\" lines to copy are the steps, as numbered ones are; plain bullets in a block are not", () => {
    expect(ids(review(doc("- [ ]")))).not.toContain("SK-STEPS-MISSING")
    expect(ids(review(doc("-")))).toContain("SK-STEPS-MISSING")
  })
})

describe("SK-REF-DANGLING-PATH: a dataset of the project under data/", () => {
  const doc = (path: string) =>
    `---\nname: experiment-tracking\ndescription: Tracks training runs with MLflow so every result can be reproduced. Use when training or comparing models.\n---\n\n# Experiment tracking\n\n## Steps\n\n1. Set the experiment with \`mlflow.set_experiment("churn-model")\`.\n2. Log the parameters before training starts.\n3. Record the exact data version: the path \`${path}\` stays the same when the file's contents change.\n`
  it("`data/train.parquet` is what the skill works on; a missing reference file of the bundle is still dangling", () => {
    expect(ids(review(doc("data/train.parquet")))).not.toContain("SK-REF-DANGLING-PATH")
    expect(ids(review(doc("references/metrics.md")))).toContain("SK-REF-DANGLING-PATH")
  })
})
