/** Dates, sizes and numbers the way people read them. */
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" })
const absolute = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" })
const day = new Intl.DateTimeFormat("en", { month: "short", day: "numeric" })

export const formatDate = (d: Date | null | undefined) => (d ? absolute.format(d) : "—")
export const formatDay = (d: Date) => day.format(d)

/** "3 minutes ago", "in 2 days", "just now". */
export const formatAgo = (d: Date | null | undefined, now = Date.now()) => {
  if (!d) return "never"
  const seconds = Math.round((d.getTime() - now) / 1000)
  const abs = Math.abs(seconds)
  if (abs < 45) return seconds <= 0 ? "just now" : "in a few seconds"
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [["minute", 60], ["hour", 3600], ["day", 86400], ["month", 2592000], ["year", 31536000]]
  let unit: Intl.RelativeTimeFormatUnit = "minute"
  let size = 60
  for (const [u, s] of steps) if (abs >= s * 0.9) [unit, size] = [u, s]
  return relative.format(Math.round(seconds / size), unit)
}

export const formatBytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`

export const formatNumber = (n: number) => n.toLocaleString("en")

export const plural = (n: number, one: string, many = `${one}s`) => `${formatNumber(n)} ${n === 1 ? one : many}`
