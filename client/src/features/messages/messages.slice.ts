import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { GetMessageCountsResult } from '../../api/generated/operations';
import { inboxChanged } from '../../lib/ui';

export type MessageCounts = GetMessageCountsResult;

export interface MessagesState {
  /** The signed-in member's counts as last read (the badge), null before the first read. */
  counts: MessageCounts | null;
  /** Goes up on every change made in this tab (a message sent, a thread marked): open lists load again. */
  version: number;
}

export const initialMessagesState: MessagesState = { counts: null, version: 0 };

const messagesSlice = createSlice({
  name: 'messages',
  initialState: initialMessagesState,
  reducers: {
    messageCountsReceived(state, action: PayloadAction<MessageCounts>) {
      state.counts = action.payload;
    },
    messageCountsCleared(state) {
      state.counts = null;
    },
  },
  extraReducers: (builder) => {
    // Something changed in this tab; the counts when the change answered them.
    builder.addCase(inboxChanged, (state, action) => {
      if (action.payload) state.counts = action.payload;
      state.version += 1;
    });
  },
});

export const { messageCountsReceived, messageCountsCleared } = messagesSlice.actions;
/** The change event, named for this feature's callers. */
export const messagesChanged = inboxChanged;
export const messagesReducer = messagesSlice.reducer;

type WithMessages = { messages: MessagesState };
export const selectUnreadMessages = (state: WithMessages) => state.messages.counts?.unread ?? 0;
export const selectMessagesVersion = (state: WithMessages) => state.messages.version;
