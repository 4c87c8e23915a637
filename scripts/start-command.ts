/**
 * What `npm start` runs once its `prestart` has built dist/server/: package.json's start script as its
 * words (`node`, the node flags, `dist/server/main.js`), without the shell's `exec` (which hands the
 * shell's process to node, so the SIGTERM npm forwards reaches the service). The flags live in
 * package.json only; the bench, the links test and the image's check read them through this.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

export const npmStartCommand = (cwd: string): Array<string> => {
  const start: string = JSON.parse(Fs.readFileSync(Path.join(cwd, "package.json"), "utf8")).scripts?.start ?? ""
  return start.trim().replace(/^exec\s+/, "").split(/\s+/).filter((word) => word.length > 0)
}
