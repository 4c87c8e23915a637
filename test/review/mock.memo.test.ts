/** Issue 16: the mock reviewer's memo (results by a hash of their input, per process, bounded). */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { AiReviewer } from "../../src/review/AiReviewer.js"
import { makeMockReviewer, MockReviewerLive, MockReviewMemo, reviewWithMock } from "../../src/review/mock/MockReviewer.js"
import type { ReviewInput } from "../../src/review/Types.js"
import { file, fileInput, SAMPLE_SKILL } from "./support.js"

const input = (content = SAMPLE_SKILL): ReviewInput => fileInput(file("SKILL.md", content, true), [], "skill")

describe("the mock reviewer's memo", () => {
  it("answers a repeated input from the memo with the same result the mock computes", () => {
    const memo = new MockReviewMemo()
    const first = memo.reviewOf(input())
    const again = memo.reviewOf(input()) // an equal input, built anew
    expect(again).toBe(first)
    expect([memo.hits, memo.misses]).toEqual([1, 1])
    // byte-identical to a review without the memo
    expect(JSON.stringify(again)).toBe(JSON.stringify(reviewWithMock(input())))
  })

  it("misses on any change of the input: content, rubric, mode, settings", () => {
    const memo = new MockReviewMemo()
    const base = input()
    const a = memo.reviewOf(base)
    const changed: ReadonlyArray<ReviewInput> = [
      input(SAMPLE_SKILL + "\nOne more line.\n"),
      { ...base, disabledRules: ["structure.missing_frontmatter"] },
      { ...base, bundleName: "another-bundle" },
      { ...base, rubric: { ...base.rubric, criteria: base.rubric.criteria.slice(1) } },
      { ...base, mode: "bundle", target: null }
    ]
    for (const other of changed) {
      const b = memo.reviewOf(other)
      expect(b).not.toBe(a)
      expect(JSON.stringify(b)).toBe(JSON.stringify(reviewWithMock(other)))
    }
    expect([memo.hits, memo.misses]).toEqual([0, 1 + changed.length])
    expect(new Set([base, ...changed].map(MockReviewMemo.keyOf)).size).toBe(1 + changed.length)
  })

  it("is bounded: the least recently used result goes first", () => {
    let computed = 0
    const memo = new MockReviewMemo(2, (i) => {
      computed++
      return reviewWithMock(i)
    })
    const [a, b, c] = ["A", "B", "C"].map((x) => input(`${SAMPLE_SKILL}\n${x}\n`))
    memo.reviewOf(a!)
    memo.reviewOf(b!)
    memo.reviewOf(a!) // a is now the most recently used
    memo.reviewOf(c!) // evicts b
    expect(memo.size).toBe(2)
    expect(computed).toBe(3)
    memo.reviewOf(a!)
    expect(computed).toBe(3)
    memo.reviewOf(b!)
    expect(computed).toBe(4)
  })

  it("shares frozen results: a caller cannot change what the next one gets", () => {
    const memo = new MockReviewMemo()
    const result = memo.reviewOf(input())
    expect(Object.isFrozen(result)).toBe(true)
    expect(Object.isFrozen(result.findings)).toBe(true)
    expect(() => (result.findings as Array<unknown>).push({})).toThrow()
    expect(() => {
      ;(result as { overallScore: number }).overallScore = 0
    }).toThrow()
    expect(memo.reviewOf(input()).overallScore).toBe(reviewWithMock(input()).overallScore)
  })

  it.effect("the layer answers through one memo per process; a reviewer of its own has its own", () =>
    Effect.gen(function*() {
      const reviewer = yield* AiReviewer
      const first = yield* reviewer.review(input())
      const again = yield* reviewer.review(input())
      expect(again).toBe(first)
      const memo = new MockReviewMemo()
      const own = yield* makeMockReviewer(memo).review(input())
      expect(own).not.toBe(first)
      expect(JSON.stringify(own)).toBe(JSON.stringify(first))
      expect(memo.misses).toBe(1)
    }).pipe(Effect.provide(MockReviewerLive)))
})
