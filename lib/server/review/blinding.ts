// The pairwise screen order moved to the pairwise kind; review code and its tests keep importing it from here.
export { adjudicatorSwapped, toCanonical, toScreen } from '@/lib/kinds/pairwise/blinding';
