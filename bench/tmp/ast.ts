import { Schema } from "effect"
import { Timestamp } from "../../src/http/Envelope.js"
const show = (a: any) => ({ tag: a._tag, keys: Object.keys(a), id: a.annotations })
console.log(show(Schema.Date.ast)); console.log(show(Timestamp.ast)); console.log((Schema.Date.ast as any).type?._tag, (Schema.Date.ast as any).from?._tag)
