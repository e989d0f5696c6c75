/** Text made safe to put in HTML, in an element or a quoted attribute: the five characters that could end either. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
