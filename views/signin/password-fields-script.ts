/**
 * The password fields' part of the sign-in steps' one inline script (signin-step-script.ts), plain
 * ES2018 with no imports, like required-fields-script.ts. It does two things a page without
 * JavaScript does without (the server's checks answer the same):
 *
 * - A show-password button beside each password field, rendered `hidden` and shown here: it
 *   switches the field between type=password and type=text, and its name and word with it. A post
 *   turns the field back to a password first, so the browser never keeps it as plain text.
 * - The new password's rules (PasswordChecklist.tsx) ticked as the collector types, each mark a
 *   word for screen readers, and what changed said in the list's polite live region.
 *
 * The rules are §5's, as src/idp/accounts/password-policy.ts checks them: code points after NFKC,
 * letters and digits of any script, the ASCII specials. password-checklist.spec.ts runs this
 * script's checks against checkPassword over a table, so the two cannot drift apart.
 */
/**
 * Which of §5's rules a password meets, as the source of a function expression: embedded in the
 * script below, and evaluated by password-checklist.spec.ts against checkPassword.
 */
export const PASSWORD_RULES_MET = `function (password) {
  var special = ${JSON.stringify('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')};
  var chars = Array.from(password.normalize('NFKC'));
  var some = function (test) { return chars.some(test); };
  return {
    minLength: chars.length >= 8,
    lowercase: some(function (c) { return /\\p{Ll}/u.test(c); }),
    uppercase: some(function (c) { return /\\p{Lu}/u.test(c); }),
    digit: some(function (c) { return /\\p{Nd}/u.test(c); }),
    special: some(function (c) { return special.indexOf(c) >= 0; })
  };
}`;

export const PASSWORD_FIELDS_SCRIPT = `(function () {
  var rulesMet = ${PASSWORD_RULES_MET};
  document.querySelectorAll('.password-input').forEach(function (box) {
    var input = box.querySelector('input');
    var button = box.querySelector('.show-password');
    if (!input || !button) return;
    var show = function (shown) {
      input.type = shown ? 'text' : 'password';
      button.textContent = button.getAttribute(shown ? 'data-hide' : 'data-show');
      var label = button.getAttribute(shown ? 'data-hide-label' : 'data-show-label');
      button.setAttribute('aria-label', label);
    };
    button.addEventListener('click', function () { show(input.type === 'password'); });
    if (input.form) input.form.addEventListener('submit', function () { show(false); });
    button.hidden = false;
  });
  document.querySelectorAll('[data-password-rules]').forEach(function (list) {
    var field = list.closest('.field');
    var input = field && field.querySelector('input');
    var status = list.querySelector('[data-password-rules-status]');
    if (!input || !status) return;
    var items = list.querySelectorAll('[data-rule]');
    input.addEventListener('input', function () {
      var met = rulesMet(input.value);
      var said = [];
      items.forEach(function (item) {
        var rule = item.getAttribute('data-rule');
        if (!(rule in met)) return;
        var was = item.getAttribute('data-met');
        var now = String(met[rule]);
        if (was === now) return;
        item.setAttribute('data-met', now);
        var state = item.querySelector('.password-rule__state');
        var word = met[rule] ? 'data-met-text' : 'data-unmet-text';
        if (state) state.textContent = state.getAttribute(word);
        // The first keystroke says only what is met already; from then on, every change.
        if (was !== null || met[rule]) said.push(item.textContent);
      });
      if (said.length > 0) status.textContent = said.join(' ');
    });
  });
})();`;
