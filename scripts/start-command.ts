/**
 * What `npm start` runs once it has built dist/server/: the last `&&` command of package.json's start
 * script, as its words (`node`, the node flags, `dist/server/main.js`). The flags live in package.json
 * only; the bench, the links test and the image's check read them through this.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

export const npmStartCommand = (cwd: string): Array<string> => {
  const start: string = JSON.parse(Fs.readFileSync(Path.join(cwd, "package.json"), "utf8")).scripts?.start ?? ""
  return (start.split("&&").at(-1) ?? "").trim().split(/\s+/).filter((word) => word.length > 0)
}
