import { pictureSigninSteps } from './visual-signin-walk';

// Issue 33 item 3: the sign-in steps pictured in ja-JP (visual-signin-walk.ts says what and why).
pictureSigninSteps('ja-JP');
