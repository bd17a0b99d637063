// The Ink instance drawing on each stdout, for the live frame writer (live-frame.ts). The patched
// ink.js (patches.ts) registers every instance it constructs; nothing else may rely on one being here:
// on Ink as installed (the unit tests) there is none and the app draws through React alone.

/** What Ink's renderer returns for a frame (ink/build/renderer.js). */
export interface InkFrame {
	output: string;
	outputHeight: number;
	staticOutput: string;
}

/** The fields and methods of Ink 6.8's `Ink` instance (ink/build/ink.js) the live frame writer uses. */
export interface InkInstance {
	isUnmounted: boolean;
	isScreenReaderEnabled: boolean;
	/** Ink's last frame as written (rows joined by "\n", no trailing newline). */
	lastOutput: string;
	/** A render is waiting behind Ink's throttle. */
	hasPendingThrottledRender: boolean;
	rootNode: {
		yogaNode?: { getComputedWidth(): number; getComputedHeight(): number };
		staticNode?: { yogaNode?: { getComputedHeight(): number } };
		/** Ink's throttled render (what a React commit calls after layout). */
		onRender(): void;
		/** Ink's unthrottled render (what a commit with new <Static> output calls). */
		onImmediateRender(): void;
	};
	calculateLayout(): void;
	/** Patched: the last frame onRender rendered or was given (in every mode, written or not). */
	rudderOutput?: string;
	/** Patched: Yoga layouts run, frames Ink rendered from the tree, and the layout the last one used. */
	rudderLayouts?: number;
	rudderRenders?: number;
	rudderRenderedLayout?: number;
	/** Patched: frames onRender took from `rudderLiveFrame`, and those of them that printed history. */
	rudderSpliced?: number;
	rudderSplicedHistory?: number;
	/** Patched: asked first by onRender; a frame to write instead of rendering the tree, or undefined. */
	rudderLiveFrame?: () => InkFrame | undefined;
}

const instances = new WeakMap<object, InkInstance>();

export function registerInk(stdout: object, instance: InkInstance): void {
	instances.set(stdout, instance);
}

/** The live Ink instance drawing on `stdout`, if the patched Ink made one. */
export function inkFor(stdout: object): InkInstance | undefined {
	const instance = instances.get(stdout);
	return instance && !instance.isUnmounted ? instance : undefined;
}

/** Takes `stdout`'s instance out (tests: the same patched Ink drawing every frame through React). */
export function forgetInk(stdout: object): void {
	instances.delete(stdout);
}
