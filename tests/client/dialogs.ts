/**
 * Finding an antd modal in jsdom. antd gives every dialog there the same aria-labelledby id, so a dialog's accessible
 * name is the first title on the page: a modal is found by its own title's text instead.
 */
import { waitFor, within } from '@testing-library/react';

/** The antd modal whose title reads `title`, once it shows; queries run inside it. */
export async function modalTitled(title: string) {
  const modal = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-modal')].find((node) => node.querySelector('.ant-modal-title')?.textContent === title);
    if (!found) throw new Error(`no ${title} dialog`);
    return found;
  });
  return within(modal);
}
