/** Stands in for CSS, SVG and image imports in component tests (jest moduleNameMapper). */
export default 'test-file-stub';
