/** The state a breaker reports, for the gateway decision, the console and `/metrics`. */
export type BreakerState = 'closed' | 'open' | 'half_open';
