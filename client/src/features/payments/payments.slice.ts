import { createSlice } from '@reduxjs/toolkit';
import { listingPaid } from '../../lib/contentEvents';
import { cashOutRequested } from './payments.events';

/**
 * What the money screens need to know of each other: `version` moves when money changed on this client (a
 * listing paid, a cash-out asked), so the wallet figures and history load again.
 */
export interface PaymentsState {
  version: number;
}

const paymentsSlice = createSlice({
  name: 'payments',
  initialState: { version: 0 },
  reducers: {},
  extraReducers: (builder) => {
    builder.addCase(listingPaid, (state) => {
      state.version += 1;
    });
    builder.addCase(cashOutRequested, (state) => {
      state.version += 1;
    });
  },
});

export const paymentsReducer = paymentsSlice.reducer;
export const selectPaymentsVersion = (state: { payments: PaymentsState }) => state.payments.version;
