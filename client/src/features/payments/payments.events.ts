import { createAction } from '@reduxjs/toolkit';

/** A piece's listing fee is paid (a credit, a code, or a confirmed checkout): it is monetized now. */
export const listingPaid = createAction<{ contentId: string; payerId: string }>('payments/listingPaid');

/** The member asked to cash out (an earn history item was added): wallet figures reload. */
export const cashOutRequested = createAction('payments/cashOutRequested');
