// Help texts shared by every command's options. No imports: command modules load this eagerly.

/** Help text of `--config`. */
export const CONFIG_HELP =
  'twinline.config.yaml (default: $TWINLINE_CONFIG, else ./twinline.config.yaml, else the built-in office sample)';

/** Help text of `--data-dir`. */
export const DATA_DIR_HELP =
  'data folder: store, watermark key, tool data (default: $TWINLINE_HOME, else .twinline beside the config)';
