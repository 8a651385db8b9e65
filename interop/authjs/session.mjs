// session.mjs: one session operation of ops.mjs, JSON on stdin, JSON on stdout.
import { main, sessionOp } from "./ops.mjs"

await main(sessionOp)
