// env.mjs: one env operation of ops.mjs, JSON on stdin, JSON on stdout.
import { main, envOp } from "./ops.mjs"

await main(envOp)
