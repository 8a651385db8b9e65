package redislimit

// ReserveLua is the source of Reserve's script, for a test that runs it
// in a state only the clock reaches.
const ReserveLua = reserveLua
