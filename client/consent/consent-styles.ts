// The consent dialog's styles, imported only from the lazily loaded consent chunk (consent.ts).
// Kept apart from consent-config so that unit tests, which cannot require CSS, never load it.
import 'vanilla-cookieconsent/dist/cookieconsent.css';
import './consent.css';
