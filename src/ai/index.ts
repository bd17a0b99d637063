export * from "./api-registry.js";
export * from "./constants.js";
export * from "./event-stream.js";
export { parseStreamingJson, StreamingJson } from "./partial-json.js";
export {
	createFauxModel,
	type FauxProvider,
	type FauxProviderOptions,
	type FauxReply,
	type FauxResponse,
	fauxReply,
	fauxText,
	fauxThinking,
	fauxToolCall,
	registerFauxProvider,
} from "./providers/faux.js";
export * from "./stream.js";
export * from "./types.js";
export * from "./usage.js";
export * from "./validation.js";
