import { renderToString } from 'react-dom/server';
import { Button, BUTTON_SIZES, BUTTON_VARIANTS, buttonClassName } from './Button';

describe(Button.name, () => {
  it('renders a <button type="button"> that is large and primary by default (§9)', () => {
    expect(renderToString(<Button>Save</Button>)).toBe(
      '<button type="button" class="ui-button ui-button--lg ui-button--primary">Save</button>',
    );
  });

  it.each(BUTTON_SIZES)('size %s gives the ui-button--%s class', (size) => {
    expect(renderToString(<Button size={size}>Go</Button>)).toContain(`ui-button--${size}`);
  });

  it.each(BUTTON_VARIANTS)('variant %s gives the ui-button--%s class', (variant) => {
    expect(renderToString(<Button variant={variant}>Go</Button>)).toContain(
      `ui-button--${variant}`,
    );
  });

  it('adds the destructive class to any variant', () => {
    expect(buttonClassName({ variant: 'neutrallink', destructive: true, size: 'sm' })).toBe(
      'ui-button ui-button--sm ui-button--neutrallink ui-button--destructive',
    );
  });

  it('keeps type, disabled, name, value and aria-* on the button', () => {
    const html = renderToString(
      <Button type="submit" disabled name="action" value="save" aria-describedby="hint">
        Save
      </Button>,
    );
    expect(html).toContain('type="submit"');
    expect(html).toContain('disabled=""');
    expect(html).toContain('name="action"');
    expect(html).toContain('value="save"');
    expect(html).toContain('aria-describedby="hint"');
  });

  it('renders a link when href is given, without button-only attributes', () => {
    const html = renderToString(
      <Button href="/collection" variant="secondary" size="md" name="ignored">
        Back
      </Button>,
    );
    expect(html).toBe(
      '<a href="/collection" class="ui-button ui-button--md ui-button--secondary">Back</a>',
    );
  });

  it('renders a disabled link without href and with aria-disabled', () => {
    const html = renderToString(
      <Button href="/collection" disabled>
        Back
      </Button>,
    );
    expect(html).not.toContain('href');
    expect(html).toContain('role="link"');
    expect(html).toContain('aria-disabled="true"');
  });

  it('appends a caller class', () => {
    expect(renderToString(<Button className="wide">Go</Button>)).toContain(
      'class="ui-button ui-button--lg ui-button--primary wide"',
    );
  });
});
