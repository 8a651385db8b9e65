// encode.mjs: one encode operation of ops.mjs, JSON on stdin, JSON on stdout.
import { main, encodeOp } from "./ops.mjs"

await main(encodeOp)
