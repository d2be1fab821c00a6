/**
 * The variable an extension (or a shell alias) gets in place of LK_API_KEY_FILE: the path of a socket on which the lk
 * that runs it answers with the key (src/config/key-socket.ts). Apart so that reading settings loads no socket code.
 */
export const KEY_SOCKET_VARIABLE = 'LK_KEY_SOCKET';
