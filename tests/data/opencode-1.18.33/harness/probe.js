// Minimal plugin used to test where opencode loads plugins from.
// Writes $CAPTURE_DIR/probe.<file name>.json with its options and the hooks it saw.
import fs from "node:fs"
import path from "node:path"
const name = path.basename(new URL(import.meta.url).pathname)
export default async function probe(input, options) {
  const dir = process.env.CAPTURE_DIR || "/tmp"
  fs.writeFileSync(
    path.join(dir, `probe.${name}.json`),
    JSON.stringify({ url: import.meta.url, options: options ?? null, directory: input.directory }, null, 2),
  )
  return {
    "experimental.chat.system.transform": async (inp, out) => {
      out.system.push(`MARKER-PROBE-${name}`)
    },
  }
}
