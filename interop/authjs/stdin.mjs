// Reads the whole of standard input as JSON (shared by the scripts here).
export async function readJSON() {
  let text = ""
  for await (const chunk of process.stdin) text += chunk
  return JSON.parse(text)
}

// Writes v as JSON on standard output.
export function writeJSON(v) {
  process.stdout.write(JSON.stringify(v))
}
