export * from "./types.js";
export * from "./event-stream.js";
export * from "./api-registry.js";
export * from "./stream.js";
export * from "./usage.js";
export * from "./validation.js";
export { parseStreamingJson, StreamingJson } from "./partial-json.js";
export {
	registerFauxProvider,
	createFauxModel,
	fauxText,
	fauxThinking,
	fauxToolCall,
	fauxReply,
	type FauxProvider,
	type FauxProviderOptions,
	type FauxResponse,
	type FauxReply,
} from "./providers/faux.js";
