/** Third-party text: spotlighting quotes and the `result.quote` stage. */
export {
  escapeQuoted,
  QUOTE_CLOSE,
  QUOTE_OPEN,
  type QuoteOptions,
  quoteThirdParty,
  unescapeQuoted,
} from './quote.js';
export {
  createQuotingStage,
  handleInjection,
  type InjectionHandling,
  type QuotingStageConfig,
} from './quoting-stage.js';
