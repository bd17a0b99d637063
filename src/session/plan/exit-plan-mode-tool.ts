// `exit_plan_mode`: in plan mode the model investigates, then proposes its plan with this tool. The
// user approves it (switching to auto-edit or keeping "ask") and the run goes on with the plan as the
// next instruction, or sends it back with feedback. Where nobody can answer (print, json) the plan is
// the run's answer and the run ends.
import { type Static, Type } from "typebox";
import type { AgentTool } from "../../agent/types.js";
import type { PermissionMode } from "../../permissions/types.js";
import type { PlanResponse } from "../types.js";

const planSchema = Type.Object({
	plan: Type.String({ minLength: 1, description: "The plan, in Markdown: the steps, the files each one changes, how to check the result" }),
});

export type ExitPlanModeInput = Static<typeof planSchema>;

export interface ExitPlanModeOptions {
	mode: () => PermissionMode;
	/** Asks the user; undefined where nobody can answer (print, json). */
	ask?: (toolCallId: string, plan: string, signal?: AbortSignal) => Promise<PlanResponse>;
	/** Switches the permission mode (system prompt and listeners follow). */
	setMode: (mode: PermissionMode) => void;
}

export function createExitPlanModeTool(options: ExitPlanModeOptions): AgentTool<typeof planSchema, { plan: string; decision?: string }> {
	return {
		name: "exit_plan_mode",
		label: "plan",
		description:
			"Plan mode only: present your plan (Markdown) for the user's approval once you have investigated enough. If approved, the mode changes and you carry the plan out; otherwise you get feedback and keep planning.",
		parameters: planSchema,
		execute: async (toolCallId, params: ExitPlanModeInput, signal) => {
			if (options.mode() !== "plan") throw new Error("Not in plan mode: carry on with the task.");
			const { plan } = params;
			if (!options.ask) return { content: [{ type: "text", text: plan }], details: { plan }, terminate: true };
			const response = await options.ask(toolCallId, plan, signal);
			if (response.decision === "revise") {
				const feedback = response.feedback?.trim();
				const text = `The user did not approve the plan yet; stay in plan mode and revise it, then call exit_plan_mode again.${feedback ? `\nThe user said: ${feedback}` : ""}`;
				return { content: [{ type: "text", text }], details: { plan, decision: "revise" } };
			}
			options.setMode(response.mode);
			const text = `The user approved the plan. Permission mode is now ${response.mode}. Carry out this plan now:\n\n${plan}`;
			return { content: [{ type: "text", text }], details: { plan, decision: "approve" } };
		},
	};
}

/**
 * The tools offered in `mode`: `exit_plan_mode` only in plan mode, and then last, so every other tool
 * keeps its place in the request. A mode change rewrites the system prompt anyway; the tool list changes
 * at its end only.
 */
export function toolsForMode(tools: readonly AgentTool[], planTool: AgentTool, mode: PermissionMode): AgentTool[] {
	const rest = tools.filter((t) => t.name !== planTool.name);
	return mode === "plan" ? [...rest, planTool] : rest;
}
