import { pictureSigninSteps } from './visual-signin-walk';

// Issue 33 item 3: the sign-in steps pictured in en-US (visual-signin-walk.ts says what and why).
pictureSigninSteps('en-US');
