// decode.mjs: one decode operation of ops.mjs, JSON on stdin, JSON on stdout.
import { main, decodeOp } from "./ops.mjs"

await main(decodeOp)
