import { createAction } from '@reduxjs/toolkit';

/** The member asked to cash out (an earn history item was added): wallet figures reload. */
export const cashOutRequested = createAction('payments/cashOutRequested');
