// Raw key sequences from Ink's input stream. `useInput` would decode keys for us, but it drops what we
// need (bracketed-paste markers, Alt+Enter vs Enter, Shift+Enter in CSI-u form), so we take Ink's split
// events as they are and name them ourselves in key-map.ts. The handler is read through a ref so the
// listener is attached once, not after every render.
import { useStdin } from "ink";
import { useEffect, useRef } from "react";

export function useRawInput(handler: (raw: string) => void): void {
	const { setRawMode, internal_eventEmitter: events, isRawModeSupported } = useStdin();
	const current = useRef(handler);
	current.current = handler;
	useEffect(() => {
		if (isRawModeSupported) setRawMode(true);
		const listener = (raw: string) => current.current(raw);
		events.on("input", listener);
		return () => {
			events.removeListener("input", listener);
			if (isRawModeSupported) setRawMode(false);
		};
	}, [events, setRawMode, isRawModeSupported]);
}
