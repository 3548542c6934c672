import { debounce } from './debounce';

describe(debounce.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs once, the delay after the last call, with the last arguments', () => {
    const fn = jest.fn<void, [number]>();
    const debounced = debounce(fn, 500);
    debounced(1);
    jest.advanceTimersByTime(300);
    debounced(2);
    jest.advanceTimersByTime(499);
    expect(fn).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith(2);
  });

  it('runs again for calls after a completed delay', () => {
    const fn = jest.fn();
    const debounced = debounce(fn, 500);
    debounced();
    jest.advanceTimersByTime(500);
    debounced();
    jest.advanceTimersByTime(500);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('cancel() drops a pending call and is harmless when nothing is pending', () => {
    const fn = jest.fn();
    const debounced = debounce(fn, 500);
    debounced.cancel();
    debounced();
    jest.advanceTimersByTime(200);
    debounced.cancel();
    jest.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
    debounced();
    jest.advanceTimersByTime(500);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
