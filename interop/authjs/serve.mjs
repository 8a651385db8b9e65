// serve.mjs runs many operations in one Node process: one JSON request a
// line on stdin, {"op": "encode" | "decode" | "session" | "env", "in": {...}},
// one JSON answer a line on stdout, {"out": {...}} or {"error": "..."}, in order.
import { createInterface } from "node:readline"
import { ops } from "./ops.mjs"

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue
  let answer
  try {
    const { op, in: input } = JSON.parse(line)
    if (!ops[op]) throw new Error(`unknown op ${op}`)
    answer = { out: await ops[op](input) }
  } catch (e) {
    answer = { error: String(e?.stack ?? e) }
  }
  process.stdout.write(JSON.stringify(answer) + "\n")
}
