// Types for `import '@inkling/react/styles.css'`: a stylesheet, imported for its rules only.
declare const stylesheet: never;
export default stylesheet;
