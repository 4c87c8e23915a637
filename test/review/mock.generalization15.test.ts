/**
 * Near misses, forty-sixth stop (issue 22): the forty-third round of skills written blind, read once.
 * Four critical findings on good text, each as the smallest text next to the text the rule must still catch.
 */
import { describe, expect, it } from "@effect/vitest"
import { ruleIds as ids, reviewText as review } from "./support.js"

const FM = "---\nname: binlog-restore\ndescription: Rebuilds a reporting database from its binary logs. Use when the reports are stale.\n---\n\n# Binlog restore\n\n## Steps\n\n1. Restore the last dump to a new instance.\n2. Find the bad statement in the logs.\n3. Replay the logs up to it.\n\n"

describe("SK-SAFE-DESTRUCTIVE: a command quoted as what a search looks for", () => {
  const doc = (command: string) =>
    `---\nname: binlog-restore\ndescription: Rebuilds a reporting database from its binary logs. Use when the reports are stale.\n---\n\n# Binlog restore\n\n## Steps\n\n1. Decode the logs.\n2. Find the statement.\n\n## Decode\n\nRun this:\n\n\`\`\`bash\n${command}\n\`\`\`\n`
  it("`grep -i 'DROP TABLE'` finds the statement; the same statement given to mysql runs it", () => {
    expect(ids(review(doc("mysqlbinlog --verbose binlog.000232 | grep -n -i -B 12 'DROP TABLE'")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("rg -n \"rm -rf /\" scripts/")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("mysql -h restore-db-1 -u root -p -e 'DROP TABLE orders'")))).toContain("SK-SAFE-DESTRUCTIVE")
    // what comes after the search's pipe runs
    expect(ids(review(doc("grep -l orders dumps/*.sql | xargs -I{} mysql -e 'DROP TABLE orders'")))).toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-SAFE-DESTRUCTIVE: a command spoken of after an article", () => {
  const doc = (sentence: string) => `${FM}## Replay the logs\n\nReplay everything after the bad transaction to the restore instance. ${sentence} Discuss this with the user before choosing this path.\n`
  it("\"After a `DROP TABLE`, later writes fail\" names a thing; \"Run a `DROP TABLE` …\" or \"Drop it with …\" tells the agent to", () => {
    expect(ids(review(doc("After a `DROP TABLE`, later writes to that table fail.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Every `git push --force` rewrites what others fetched.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(`${FM}## Clean up\n\nRun a \`DROP TABLE orders_restore\` on the live server.\n`))).toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(`${FM}## Clean up\n\nDrop a table you no longer need with \`DROP TABLE orders\`.\n`))).toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-SAFE-DESTRUCTIVE: a section of things not to do", () => {
  const doc = (title: string) => `---\nname: ci-disk-cleanup\ndescription: Frees disk space on a CI host by removing old images and build caches. Use when a runner's disk is full.\n---\n\n# CI disk cleanup\n\n## Steps\n\n1. Run \`docker image prune --filter until=168h\` and report what it freed.\n\n## ${title}\n\n- \`rm -rf /var/lib/docker/*\` while the daemon is running. It corrupts the storage driver's state.\n`
  it("its items quote the mistakes; under another heading the same item is a command", () => {
    expect(ids(review(doc("Things not to do")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Freeing more space")))).toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-SAFE-DESTRUCTIVE: a legend that marks the acts to confirm first", () => {
  const doc = (legend: string) =>
    `---\nname: lfs-migration\ndescription: Moves large binaries of a Git repository into Git LFS, history included. Use when a push is rejected for large files.\n---\n\n# LFS migration\n\nWork through every box in order. ${legend}\n\n## Publish\n\n- [ ] Branch protection allows force pushes on the affected branches\n- [ ] ⚠ Rewritten refs pushed: \`git push --force --all origin\`\n- [ ] Branch protection restored\n`
  it("\"Items marked ⚠ … confirm with the user before doing them\" confirms the marked item; a legend that asks nothing does not", () => {
    expect(ids(review(doc("Items marked ⚠ rewrite history; stop and confirm with the user before doing them.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Items marked ⚠ rewrite history.")))).toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Items marked ⚠ rewrite history; never wait for confirmation on them.")))).toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-FAIL-MISSING: a condition that goes back to an earlier step", () => {
  const doc = (step6: string) =>
    `---\nname: key-rotation\ndescription: Rotates an IAM user's access key without downtime. Use when a key is older than policy allows.\n---\n\n# Key rotation\n\n## Procedure\n\n1. Run the script that creates the new key: \`python3 rotate.py create svc-reporting\`.\n2. Store it: \`python3 rotate.py store svc-reporting\`.\n3. Redeploy the services that read it.\n4. Deactivate the old key with \`aws iam update-access-key --status Inactive\`.\n5. ${step6}\n6. Delete the old key after a week with \`aws iam delete-access-key\`.\n`
  it("\"If they appear, reactivate it … and repeat from step 2\" handles the failure; watching for errors alone does not", () => {
    expect(ids(review(doc("Watch the logs for `InvalidClientTokenId`. If they appear, reactivate the old key, find the missed consumer, and repeat from step 2.")))).not.toContain("SK-FAIL-MISSING")
    expect(ids(review(doc("Watch the logs for `InvalidClientTokenId` for an hour.")))).toContain("SK-FAIL-MISSING")
  })
})

describe("SK-STEPS-MISSING: a job done with a library's API, taught in code", () => {
  const FM = "---\nname: seq-parsing\ndescription: Reads, writes, converts, and inspects sequence files (FASTA, FASTQ, GenBank) with Biopython's SeqIO, Seq, and SeqRecord APIs. Use when parsing sequence files in Python or fetching records from NCBI.\n---\n\n# Sequence parsing\n\n"
  const install = "## Installation\n\n```bash\npip install biopython\npython -c \"import Bio; print(Bio.__version__)\"\n```\n\n"
  const code = "## Reading files\n\n```python\nfrom Bio import SeqIO\n\n# many records: parse() returns an iterator\nfor record in SeqIO.parse(\"proteins.fasta\", \"fasta\"):\n    print(record.id, len(record.seq))\n\n# exactly one record: read() raises ValueError otherwise\nrecord = SeqIO.read(\"NC_000913.gb\", \"genbank\")\n\nimport gzip\nwith gzip.open(\"reads.fastq.gz\", \"rt\") as handle:\n    n = sum(1 for _ in SeqIO.parse(handle, \"fastq\"))\n```\n\nThe format string is required and never guessed from the extension: `\"fasta\"`, `\"fastq\"`, `\"genbank\"`.\n"
  it("a body of API snippets teaches the library the description names; without the library named it is a job with no steps", () => {
    expect(ids(review(`${FM}${install}${code}`))).not.toContain("SK-STEPS-MISSING")
    // the same body, with a description that names no library or API: a job, whose procedure is not there
    expect(ids(review(`${FM.replace(" with Biopython's SeqIO, Seq, and SeqRecord APIs", "")}${install}${code}`))).toContain("SK-STEPS-MISSING")
  })
})

describe("SK-CLAR-SHOUTING: key words an RFC 2119 line defines, unquoted", () => {
  const rules = "## Rules\n\n- You MUST NOT print a secret key.\n- You MUST create the new key before deactivating the old one.\n- You MUST deactivate before deleting.\n- You MUST get the user's confirmation before deleting a production key.\n- You MUST rotate one consumer at a time.\n- Keep the old key inactive for a week.\n"
  const doc = (line: string) => `---\nname: key-rotation\ndescription: Rotates an IAM user's access key without downtime. Use when a key is older than policy allows.\n---\n\n# Key rotation\n\n${line}\n\n${rules}`
  it("\"… are to be interpreted as described in RFC 2119\" makes MUST a graded word; without it, five are shouting", () => {
    expect(ids(review(doc("The key words MUST, MUST NOT, SHOULD, and MAY in this document are to be interpreted as described in RFC 2119.")))).not.toContain("SK-CLAR-SHOUTING")
    expect(ids(review(doc("Follow these rules on every rotation.")))).toContain("SK-CLAR-SHOUTING")
  })
})
