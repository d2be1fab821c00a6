import type { ListRecord, WorkType } from './model.js';

/** The lists each named sandbox account has (src/sandbox/data.ts builds them from the account's entries). */
export interface ListSpec {
  name: string;
  description: string | null;
  types: WorkType[] | null;
  size: number;
  visibility: ListRecord['visibility'];
  owner?: string;
}

export const LIST_SPECS: Record<string, ListSpec[]> = {
  demo: [
    { name: 'Favourites ★', description: 'The ones I keep coming back to.', types: null, size: 25, visibility: 'public' },
    {
      name: 'Watch with Léa',
      description: 'Films and shows for Friday nights, in no particular order',
      types: ['film', 'series', 'anime'],
      size: 12,
      visibility: 'friends',
    },
    { name: 'Cozy games', description: null, types: ['game'], size: 8, visibility: 'private' },
    {
      name: '2026 reading challenge',
      description: 'One book a month, at least; "classics" count double.',
      types: ['book'],
      size: 15,
      visibility: 'public',
    },
    { name: 'Best of 東京', description: 'Tokyo, on screen and on the page', types: ['film', 'anime', 'book'], size: 6, visibility: 'public' },
    { name: 'To rewatch', description: null, types: ['film', 'series'], size: 10, visibility: 'private' },
    { name: 'Movie night', description: 'Camille’s list; add what you like.', types: ['film'], size: 9, visibility: 'friends', owner: 'camille' },
    { name: 'Everything, ever', description: null, types: null, size: 150, visibility: 'private' },
  ],
  reader: [
    { name: 'À voir absolument', description: 'Films et séries', types: ['film', 'series'], size: 10, visibility: 'public' },
    { name: "Lectures d'été", description: null, types: ['book'], size: 7, visibility: 'private' },
    { name: 'Jeux à finir', description: null, types: ['game'], size: 5, visibility: 'private' },
    { name: 'Albums du dimanche', description: 'Partagée par Marco', types: ['album'], size: 6, visibility: 'friends', owner: 'marco' },
  ],
};
