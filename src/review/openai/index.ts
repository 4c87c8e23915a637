/** The real AI reviewer: `OpenAiReviewerLive` provides `AiReviewer` (docs/ai-provider.md). */
export { layerWithoutHttpClient, make, OpenAiReviewerLive, settingsFromConfig } from "./OpenAiReviewer.js"
export type { OpenAiSettings } from "./OpenAiReviewer.js"
