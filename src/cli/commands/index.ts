/** Every command, in the order `rubr --help` lists them. */
import { credits, jobs } from "./account.js"
import { audits } from "./audits.js"
import { bundles } from "./bundles.js"
import { check } from "./check.js"
import { files } from "./files.js"
import { validate } from "./validate.js"
import { verify } from "./verify.js"
import { versions } from "./versions.js"
import { convert, evalCommand, proof } from "./work.js"

export const commands = [check, validate, verify, bundles, files, versions, audits, convert, evalCommand, proof, jobs, credits] as const
