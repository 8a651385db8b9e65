// env.mjs shows the secret list @auth/core builds from environment
// variables (setEnvDefaults), to compare with Gatehouse's FromEnv.
// stdin:  {"AUTH_SECRET": "…", "AUTH_SECRET_1": "…", …}
// stdout: {"secret": ["…", …]}
import { setEnvDefaults } from "@auth/core"
import { readJSON, writeJSON } from "./stdin.mjs"

const env = await readJSON()
const config = { providers: [] }
setEnvDefaults(env, config)
writeJSON({ secret: config.secret })
