/**
 * The one script of the sign-in steps, inlined under the page's CSP nonce. Their forms say
 * `novalidate`, so the browser shows no bubble of its own in its own language; before a post this
 * says, next to each required field left empty, the message the server would give (the field's
 * `data-required`, already in the page's language), and focuses the first. Without JavaScript, and
 * for any other mistake, the server's checks answer as before. An action marked `formnovalidate`
 * (Back, Resend, Skip) posts as it is. Plain ES2017, no imports: it runs before and without the
 * shell's bundle.
 */
export const REQUIRED_FIELDS_SCRIPT = `(function () {
  var isEmpty = function (input) {
    if (input.type === 'checkbox' || input.type === 'radio') return !input.checked;
    return (input.type === 'password' ? input.value : input.value.trim()) === '';
  };
  document.querySelectorAll('form[data-required-fields]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      if (event.submitter && event.submitter.formNoValidate) return;
      var first = null;
      form.querySelectorAll('.field[data-required]').forEach(function (field) {
        var inputs = Array.prototype.slice.call(field.querySelectorAll('input'));
        if (inputs.length === 0) return;
        var id = 'field-' + inputs[0].name + '-error';
        var described = field.tagName === 'FIELDSET' ? field : inputs[0];
        var error = document.getElementById(id);
        var empty = inputs.every(isEmpty);
        if (!empty) {
          if (error && error.hasAttribute('data-client')) {
            error.remove();
            var kept = (described.getAttribute('aria-describedby') || '').split(' ');
            kept = kept.filter(function (other) { return other !== id; }).join(' ');
            if (kept) described.setAttribute('aria-describedby', kept);
            else described.removeAttribute('aria-describedby');
            field.classList.remove('invalid');
            inputs[0].removeAttribute('aria-invalid');
          }
          return;
        }
        if (!error) {
          error = document.createElement('p');
          error.id = id;
          error.className = 'field-error';
          error.setAttribute('data-client', '');
          var radio = field.querySelector('.radio');
          var before = radio || (inputs[0].type === 'checkbox' ? null : inputs[0]);
          // A password field sits in a box with its show button: the message goes before the box.
          if (before && before.parentNode !== field) before = before.parentNode;
          field.insertBefore(error, before);
          var ids = (described.getAttribute('aria-describedby') || '').split(' ');
          var all = ids.concat(id).join(' ').trim();
          if (ids.indexOf(id) < 0) described.setAttribute('aria-describedby', all);
        }
        error.textContent = field.getAttribute('data-required');
        field.classList.add('invalid');
        if (described !== field) inputs[0].setAttribute('aria-invalid', 'true');
        first = first || inputs[0];
      });
      if (first) {
        event.preventDefault();
        first.focus();
      }
    });
  });
})();`;
