// Stands in for react-devtools-core in the bundle: Ink loads it only when DEV=true.
export default { initialize() {}, connectToDevTools() {} };
