export {
  type Config,
  ConfigSchema,
  loadConfig,
  type ProviderEntry,
  ProviderEntrySchema,
  parseProviderFlag,
} from "./config.js";
export { describeProviders, type RunReport, renderJson, renderText } from "./report.js";
