// The session's model and thinking level as ACP config options (`session/set_config_option`), so an
// editor can offer its model picker. The permission mode is the session mode (permission-options.ts).
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { THINKING_LEVELS } from "../../ai/constants.js";
import type { Model, ThinkingLevel } from "../../ai/types.js";
import type { AgentSession } from "../../session/agent-session.js";
import { invalidParams } from "./acp-error.js";

type ConfigSession = Pick<AgentSession, "getState" | "availableModels" | "setModel" | "setThinkingLevel">;

const modelValue = (model: Pick<Model, "provider" | "id">) => `${model.provider}/${model.id}`;

export function configOptionsOf(session: ConfigSession): SessionConfigOption[] {
	const state = session.getState();
	const models = session.availableModels();
	// The session's model is listed even when it is not among the available ones (a loaded session's).
	const listed = models.some((m) => modelValue(m) === modelValue(state.model)) ? models : [state.model, ...models];
	return [
		{
			type: "select",
			id: "model",
			name: "Model",
			category: "model",
			currentValue: modelValue(state.model),
			options: listed.map((m) => ({ value: modelValue(m), name: m.name || m.id, description: modelValue(m) })),
		},
		{
			type: "select",
			id: "thinking",
			name: "Thinking",
			category: "thought_level",
			description: state.model.reasoning ? null : "This model does not think: the level stays off",
			currentValue: state.thinkingLevel,
			options: THINKING_LEVELS.map((level) => ({ value: level, name: level })),
		},
	];
}

/** Applies one option; an unknown option or value is -32602. */
export async function setConfigOption(session: ConfigSession, configId: string, value: unknown): Promise<void> {
	if (configId === "model") {
		const model = session.availableModels().find((m) => modelValue(m) === value);
		if (!model) throw invalidParams(`unknown model ${JSON.stringify(value)} (one of the "model" option's values)`, { configId });
		await session.setModel(model);
		return;
	}
	if (configId === "thinking") {
		if (!THINKING_LEVELS.includes(value as ThinkingLevel))
			throw invalidParams(`thinking must be one of ${THINKING_LEVELS.join(", ")}`, { configId });
		session.setThinkingLevel(value as ThinkingLevel);
		return;
	}
	throw invalidParams(`unknown config option ${JSON.stringify(configId)} (model, thinking)`, { configId });
}
