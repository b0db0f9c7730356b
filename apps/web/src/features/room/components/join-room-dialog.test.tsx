import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { JoinRoomDialog } from './join-room-dialog';

function setup(currentRoom: string | null = 'ABC2345') {
  const onJoin = vi.fn();
  render(<JoinRoomDialog open currentRoom={currentRoom} onClose={() => {}} onJoin={onJoin} />);
  const input = screen.getByTestId('join-room-input') as HTMLInputElement;
  const submit = (value: string) => {
    fireEvent.change(input, { target: { value } });
    fireEvent.click(screen.getByTestId('join-room-submit'));
  };
  return { onJoin, input, submit };
}

describe('JoinRoomDialog', () => {
  it('keeps at most 7 characters, after taking out spaces', () => {
    const { input } = setup();
    fireEvent.change(input, { target: { value: ' 2jfkash' } });
    expect(input.value).toBe('2JFKASH');
    fireEvent.change(input, { target: { value: 'ABCDEFGHJK' } });
    expect(input.value).toBe('ABCDEFG');
  });

  it('takes the code out of a pasted share link', () => {
    const { onJoin, submit } = setup();
    submit('https://xtalk.example/translate?r=HJK2345');
    expect(onJoin).toHaveBeenCalledWith('HJK2345');
  });

  it('joins a trimmed, upper-cased code', () => {
    const { onJoin, submit } = setup();
    submit(' xyz9876 ');
    expect(onJoin).toHaveBeenCalledWith('XYZ9876');
  });

  it('explains a wrong length and the current room, without joining', () => {
    const { onJoin, submit } = setup();
    submit('abc');
    expect(screen.getByRole('alert').textContent).toBe('Invalid Room Code (must be 7 characters).');
    submit('abc2345');
    expect(screen.getByRole('alert').textContent).toBe('You are already in this room.');
    expect(onJoin).not.toHaveBeenCalled();
  });
});
