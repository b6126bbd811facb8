// Every section of the suite in one module. Far from the target the run loads this file alone, so
// that the scenarios of all sections wait side by side in one worker (vitest runs the files of a
// worker one after another). A new section file is listed here too (selftest/suite/sections.test.ts).
import './4.1-list-pets.test.ts';
import './4.2-create-pet.test.ts';
import './4.3-get-pet.test.ts';
import './4.4-store-orders.test.ts';
import './4.5-messages.test.ts';
import './5-authentication.test.ts';
import './7-errors.test.ts';
import './8-limits.test.ts';
import './sequences.test.ts';
